package webhook_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store/pebble"
	"github.com/cairn-dev/cairn/webhook"
)

// request is what a receiver got.
type request struct {
	id, ts, sig string
	body        []byte
}

// receiver is a webhook endpoint on 127.0.0.1 answering each request with
// the next status of statuses (the last one repeated).
func receiver(t *testing.T, statuses ...int) (*httptest.Server, chan request) {
	got := make(chan request, 100)
	var mu sync.Mutex
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		st := statuses[min(n, len(statuses)-1)]
		n++
		mu.Unlock()
		got <- request{r.Header.Get("webhook-id"), r.Header.Get("webhook-timestamp"), r.Header.Get("webhook-signature"), b}
		w.WriteHeader(st)
	}))
	t.Cleanup(srv.Close)
	return srv, got
}

type fixture struct {
	db    *pebble.DB
	svc   *webhook.Service
	clock *cairn.ManualClock
}

func newFixture(t *testing.T, allowPrivate bool) *fixture {
	db, err := pebble.Open("", pebble.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	clock := cairn.NewManualClock(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC))
	cfg := webhook.DefaultConfig()
	cfg.AllowPrivate, cfg.Poll = allowPrivate, time.Hour // woken, not polled
	svc := &webhook.Service{Store: db, Config: cfg, Clock: clock, Render: func(a cairn.WatchAlert) any { return a }}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { svc.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return &fixture{db, svc, clock}
}

// next waits for the receiver's next request.
func next(t *testing.T, got chan request) request {
	t.Helper()
	select {
	case r := <-got:
		return r
	case <-time.After(20 * time.Second):
		t.Fatal("no delivery")
	}
	return request{}
}

// waitDelivery waits until the endpoint's only delivery satisfies ok.
func (f *fixture) waitDelivery(t *testing.T, e *cairn.WebhookEndpoint, ok func(cairn.WebhookDelivery) bool) cairn.WebhookDelivery {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		ds, err := f.db.ListDeliveries(context.Background(), e.DeveloperID, e.ID, "", 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(ds) == 1 && ok(ds[0]) {
			return ds[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("deliveries %+v", ds)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestDeliverySignedAndRetried: a delivery is signed as Standard Webhooks
// says, retried after a failure (5 s later) under the same webhook-id,
// and recorded delivered.
func TestDeliverySignedAndRetried(t *testing.T) {
	f := newFixture(t, true)
	srv, got := receiver(t, 500, 204)
	e, err := f.svc.Create(context.Background(), "d1", srv.URL+"/hook", []string{cairn.EventListVersion})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.svc.Emit(context.Background(), "", cairn.EventListVersion, "7", map[string]int{"listVersion": 7}); err != nil {
		t.Fatal(err)
	}
	first := next(t, got)
	ts, _ := strconv.ParseInt(first.ts, 10, 64)
	if !webhook.Verify(e.Secret, first.id, ts, first.body, first.sig) || ts != f.clock.Now().Unix() ||
		!strings.Contains(string(first.body), `"type":"list.version"`) || !strings.Contains(string(first.body), `"data":{"listVersion":7}`) {
		t.Fatalf("first attempt %+v %s", first, first.body)
	}
	d := f.waitDelivery(t, e, func(d cairn.WebhookDelivery) bool { return d.Attempts == 1 })
	if d.Status != cairn.DeliveryPending || d.LastStatus != 500 || !d.NextAttemptAt.Equal(f.clock.Now().Add(5*time.Second)) {
		t.Fatalf("after a failure: %+v", d)
	}
	f.clock.Advance(5 * time.Second)
	f.svc.Wake()
	second := next(t, got)
	if second.id != first.id || string(second.body) != string(first.body) {
		t.Fatalf("retry %+v, first %+v", second, first)
	}
	d = f.waitDelivery(t, e, func(d cairn.WebhookDelivery) bool { return d.Status == cairn.DeliveryDelivered })
	if d.Attempts != 2 || d.LastStatus != 204 {
		t.Fatalf("delivered: %+v", d)
	}
	// A second emission of one event enqueues nothing.
	if err := f.svc.Emit(context.Background(), "", cairn.EventListVersion, "7", map[string]int{"listVersion": 7}); err != nil {
		t.Fatal(err)
	}
	f.waitDelivery(t, e, func(d cairn.WebhookDelivery) bool { return d.Status == cairn.DeliveryDelivered })
}

// TestDeliveryFailsAfterADay: an endpoint that always fails gets retries
// growing from 5 s to at most an hour for 24 hours; then the delivery is
// failed and the endpoint disabled, with the reason.
func TestDeliveryFailsAfterADay(t *testing.T) {
	f := newFixture(t, true)
	srv, got := receiver(t, 503)
	e, err := f.svc.Create(context.Background(), "d1", srv.URL, []string{cairn.EventListVersion})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.svc.Emit(context.Background(), "", cairn.EventListVersion, "1", 1); err != nil {
		t.Fatal(err)
	}
	var delays []time.Duration
	for attempts := 1; ; attempts++ {
		next(t, got)
		d := f.waitDelivery(t, e, func(d cairn.WebhookDelivery) bool { return d.Attempts == attempts })
		if d.Status == cairn.DeliveryFailed {
			break
		}
		delays = append(delays, d.NextAttemptAt.Sub(f.clock.Now()))
		f.clock.Set(d.NextAttemptAt)
		f.svc.Wake()
	}
	if delays[0] != 5*time.Second || delays[1] != 10*time.Second || delays[len(delays)-1] != time.Hour {
		t.Fatalf("delays %v", delays)
	}
	if total := f.clock.Now().Sub(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)); total < 23*time.Hour || total > 24*time.Hour {
		t.Fatalf("retried for %v", total)
	}
	ep, err := f.db.Endpoint(context.Background(), "d1", e.ID)
	if err != nil || !ep.Disabled || !strings.Contains(ep.Reason, "status 503") {
		t.Fatalf("endpoint after a day of failures: %+v %v", ep, err)
	}
}

// TestPrivateTargetRefusedAtConnect: an endpoint whose address turns out
// not to be public (as after DNS rebinding) gets no request; the attempt
// fails saying why.
func TestPrivateTargetRefusedAtConnect(t *testing.T) {
	f := newFixture(t, false)
	srv, got := receiver(t, 200)
	// Written as if its name had resolved to a public address at
	// registration.
	e := &cairn.WebhookEndpoint{ID: cairn.NewID(), DeveloperID: "d1", URL: srv.URL, Events: []string{cairn.EventListVersion},
		Secret: webhook.NewSecret(), CreatedAt: f.clock.Now()}
	if err := f.db.CreateEndpoint(context.Background(), e); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.Emit(context.Background(), "", cairn.EventListVersion, "1", 1); err != nil {
		t.Fatal(err)
	}
	d := f.waitDelivery(t, e, func(d cairn.WebhookDelivery) bool { return d.Attempts == 1 })
	if !strings.Contains(d.LastError, "not public") || len(got) != 0 {
		t.Fatalf("delivery to 127.0.0.1: %+v, %d requests", d, len(got))
	}
	if _, err := f.svc.Create(context.Background(), "d1", srv.URL, []string{cairn.EventListVersion}); !cairn.IsCode(err, cairn.EINVALID) {
		t.Fatalf("registering an http loopback URL: %v", err)
	}
}

// TestRedirectNotFollowed: a 3xx answer is a failed attempt; its target
// gets nothing.
func TestRedirectNotFollowed(t *testing.T) {
	f := newFixture(t, true)
	target, got := receiver(t, 200)
	redirect := httptest.NewServer(http.RedirectHandler(target.URL, http.StatusTemporaryRedirect))
	defer redirect.Close()
	e, err := f.svc.Create(context.Background(), "d1", redirect.URL, []string{cairn.EventListVersion})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.svc.Emit(context.Background(), "", cairn.EventListVersion, "1", 1); err != nil {
		t.Fatal(err)
	}
	d := f.waitDelivery(t, e, func(d cairn.WebhookDelivery) bool { return d.Attempts == 1 })
	if d.LastStatus != http.StatusTemporaryRedirect || d.Status != cairn.DeliveryPending || len(got) != 0 {
		t.Fatalf("redirected delivery %+v, %d requests to the target", d, len(got))
	}
}

// TestAttemptsBoundedPerEndpoint: ten deliveries due at once to one
// endpoint are sent at most PerEndpoint at a time (the receiver holds
// each request until PerEndpoint of them are in).
func TestAttemptsBoundedPerEndpoint(t *testing.T) {
	f := newFixture(t, true)
	var mu sync.Mutex
	inFlight, most, n := 0, 0, 0
	full := make(chan struct{})
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		inFlight++
		most, n = max(most, inFlight), n+1
		if inFlight == webhook.DefaultConfig().PerEndpoint {
			once.Do(func() { close(full) })
		}
		mine := n
		mu.Unlock()
		if mine <= webhook.DefaultConfig().PerEndpoint {
			<-full // the first ones wait until the bound is reached
		}
		mu.Lock()
		inFlight--
		mu.Unlock()
	}))
	defer srv.Close()
	e, err := f.svc.Create(context.Background(), "d1", srv.URL, []string{cairn.EventListVersion})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		if err := f.svc.Emit(context.Background(), "", cairn.EventListVersion, strconv.Itoa(i), i); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		ds, err := f.db.ListDeliveries(context.Background(), "d1", e.ID, "", 20)
		if err != nil {
			t.Fatal(err)
		}
		done := 0
		for _, d := range ds {
			if d.Status == cairn.DeliveryDelivered {
				done++
			}
		}
		if done == 10 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("delivered %d of 10", done)
		}
		time.Sleep(5 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if most > webhook.DefaultConfig().PerEndpoint {
		t.Fatalf("%d attempts at once to one endpoint, at most %d", most, webhook.DefaultConfig().PerEndpoint)
	}
}
