package main

import (
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/store/postgres/pgtest"
)

// TestWebhookClusterExactlyOnce: two instances on one PostgreSQL schema,
// both ingesting the version that lists a watched address at once and
// both sending webhooks, record one alert and send one watchlist.hit
// (one webhook-id) for the change.
func TestWebhookClusterExactlyOnce(t *testing.T) {
	url := pgtest.URL(t)
	schema := pgtest.Schema(t, url)
	recv, seen := idReceiver(t)
	orig, err := os.ReadFile("testdata/sanctioned_addresses_ETH.txt")
	if err != nil {
		t.Fatal(err)
	}
	list := filepath.Join(t.TempDir(), "eth.txt")
	if err := os.WriteFile(list, orig, 0o600); err != nil {
		t.Fatal(err)
	}
	instance := func() *testServer {
		return clusterInstance(t, url, schema, func(cfg *Config) {
			cfg.Sources = stringList{"list:ETH=" + list}
			cfg.IngestSchedule = "@every 1000h"
		})
	}
	a := instance()
	eventually(t, "the first instance leads", a.m.Leading)
	b := instance()
	ag := a.register(t, "exchange")
	hook := b.do(t, "POST", "/v1/webhooks", ag.Key, map[string]any{"url": recv.URL, "events": []string{"watchlist.hit"}}).must(t, http.StatusCreated)
	const addr = "0x52908400098527886E0F7030069857D2E4169EE7"
	a.do(t, "POST", "/v1/compliance/watchlists", ag.Key, map[string]any{"name": "w", "addresses": []map[string]string{
		{"address": addr, "chain": "ethereum"}}}).must(t, http.StatusCreated)
	if err := os.WriteFile(list, append(orig, "\n"+addr+"\n"...), 0o600); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for _, ts := range []*testServer{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := ts.try(t, "POST", "/v1/admin/ingest", apitest.AdminToken, nil)
			if err != nil || r.Status != http.StatusOK {
				t.Errorf("ingest: %v %+v", err, r)
			}
		}()
	}
	wg.Wait()
	eventually(t, "the hit delivered", func() bool {
		ds := a.do(t, "GET", "/v1/webhooks/"+hook.str("id")+"/deliveries", ag.Key, nil).must(t, http.StatusOK).JSON["deliveries"].([]any)
		return len(ds) > 0 && ds[0].(map[string]any)["status"] == "delivered"
	})
	for _, ts := range []*testServer{a, b} {
		alerts := ts.do(t, "GET", "/v1/compliance/alerts", ag.Key, nil).must(t, http.StatusOK).JSON["alerts"].([]any)
		ds := ts.do(t, "GET", "/v1/webhooks/"+hook.str("id")+"/deliveries", ag.Key, nil).must(t, http.StatusOK).JSON["deliveries"].([]any)
		if len(alerts) != 1 || len(ds) != 1 {
			t.Fatalf("alerts %v, deliveries %v", alerts, ds)
		}
	}
	if ids := seen(); len(ids) != 1 {
		t.Fatalf("webhook ids received: %v", ids)
	}
}

// idReceiver is a webhook endpoint on 127.0.0.1 counting the requests of
// each webhook-id; seen returns a copy of the counts.
func idReceiver(t *testing.T) (recv *httptest.Server, seen func() map[string]int) {
	var mu sync.Mutex
	ids := map[string]int{}
	recv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		mu.Lock()
		ids[r.Header.Get("webhook-id")]++
		mu.Unlock()
	}))
	t.Cleanup(recv.Close)
	return recv, func() map[string]int {
		mu.Lock()
		defer mu.Unlock()
		return maps.Clone(ids)
	}
}

// clusterInstance starts an instance on the PostgreSQL schema, electing
// its leader every 100 ms and sending webhooks to private addresses,
// with the settings of set.
func clusterInstance(t *testing.T, url, schema string, set func(*Config)) *testServer {
	cfg := testConfig(t, t.TempDir())
	cfg.Store, cfg.PostgresSchema = url, schema
	cfg.RegisterLimitPerIP = 1000
	cfg.LeaderInterval = 100 * time.Millisecond
	cfg.WebhookAllowPrivate, cfg.WebhookPollInterval = true, 50*time.Millisecond
	set(&cfg)
	return startServer(t, cfg)
}
