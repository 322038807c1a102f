package webhook_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store/pebble"
	"github.com/cairn-dev/cairn/webhook"
)

// BenchmarkCommitToLastHit is the time from a list version's commit to
// its watchlist.hit deliveries received by a local receiver: 1,000
// developer accounts, each with one webhook endpoint and one watchlist of
// 100 addresses (100,000 watched addresses), on the embedded store on
// disk. Each round commits a version that lists one watched address of
// every watchlist (1,000 hits, 1,000 deliveries to 1,000 endpoints) and
// 1,000 unwatched ones, and waits for the 1,000 deliveries. It reports the
// p50 and p99 of the rounds' commit-to-last-delivery time and of each
// delivery's commit-to-delivery time; rounds are -benchtime Nx (at most
// 100).
func BenchmarkCommitToLastHit(b *testing.B) {
	const devs, perList = 1000, 100
	db, err := pebble.Open(b.TempDir(), pebble.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	arrivals := make(chan time.Time, devs*4)
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrivals <- time.Now()
	}))
	defer recv.Close()
	ctx := context.Background()
	addr := func(dev, j int) string { return fmt.Sprintf("0x%040x", dev*perList+j+1) }
	for d := range devs {
		dev := fmt.Sprintf("dev%04d", d)
		e := &cairn.WebhookEndpoint{ID: cairn.NewID(), DeveloperID: dev, URL: fmt.Sprintf("%s/d/%d", recv.URL, d),
			Events: []string{cairn.EventWatchlistHit}, Secret: webhook.NewSecret(), CreatedAt: time.Now()}
		if err := db.CreateEndpoint(ctx, e); err != nil {
			b.Fatal(err)
		}
		as := make([]cairn.WatchedAddress, perList)
		for j := range as {
			as[j] = cairn.WatchedAddress{Family: "evm", Address: addr(d, j), Input: addr(d, j), Chain: "ethereum"}
		}
		if err := db.CreateWatchlist(ctx, &cairn.Watchlist{ID: cairn.NewID(), DeveloperID: dev, Name: "w"}, as, nil); err != nil {
			b.Fatal(err)
		}
	}
	cfg := webhook.DefaultConfig()
	cfg.AllowPrivate, cfg.Poll = true, time.Second
	svc := &webhook.Service{Store: db, Config: cfg, Clock: cairn.SystemClock{}, Render: func(a cairn.WatchAlert) any { return a }}
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { svc.Run(runCtx); close(done) }()
	defer func() { stop(); <-done }()
	if b.N > perList {
		b.Fatalf("at most %d rounds", perList)
	}
	var lasts, each []time.Duration
	b.ResetTimer()
	for r := range b.N {
		var added []cairn.ListEntry
		for d := range devs {
			added = append(added, cairn.ListEntry{Family: "evm", Address: addr(d, r), Source: "gov_sdn", EntityID: "e", Category: "sanctions"},
				cairn.ListEntry{Family: "evm", Address: fmt.Sprintf("0x%040x", 1<<40+r*devs+d), Source: "gov_sdn", EntityID: "u", Category: "sanctions"})
		}
		start := time.Now()
		if err := db.CommitListVersion(ctx, cairn.ListVersion{Version: uint64(r + 1), BuiltAt: start}, added, nil); err != nil {
			b.Fatal(err)
		}
		svc.Wake()
		var last time.Duration
		for range devs {
			select {
			case at := <-arrivals:
				last = at.Sub(start)
				each = append(each, last)
			case <-time.After(5 * time.Minute):
				b.Fatal("deliveries missing")
			}
		}
		lasts = append(lasts, last)
	}
	b.StopTimer()
	b.ReportMetric(pct(lasts, 50), "last-p50-ms")
	b.ReportMetric(pct(lasts, 99), "last-p99-ms")
	b.ReportMetric(pct(each, 50), "each-p50-ms")
	b.ReportMetric(pct(each, 99), "each-p99-ms")
}

// pct is the pth percentile of ds, in milliseconds.
func pct(ds []time.Duration, p int) float64 {
	s := slices.Clone(ds)
	slices.Sort(s)
	return float64(s[min(len(s)-1, len(s)*p/100)].Microseconds()) / 1000
}
