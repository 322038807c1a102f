package webhook_test

import (
	"context"
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
	"github.com/cairn-dev/cairn/webhook/webhooktest"
)

// receiver is a webhook endpoint on 127.0.0.1 answering each request with
// the next status of statuses (the last one repeated).
func receiver(t *testing.T, statuses ...int) (*httptest.Server, chan webhooktest.Request) {
	return webhooktest.Receiver(t, func(n int) int { return statuses[min(n, len(statuses)-1)] })
}

type fixture struct {
	db    *pebble.DB
	svc   *webhook.Service
	clock *cairn.ManualClock
}

func newFixture(t *testing.T, allowPrivate bool) *fixture {
	cfg := webhook.DefaultConfig()
	cfg.AllowPrivate = allowPrivate
	return newFixtureConfig(t, cfg)
}

// newFixtureConfig is newFixture with the sender's settings (polled
// hourly: woken, not polled).
func newFixtureConfig(t *testing.T, cfg webhook.Config) *fixture {
	db, err := pebble.Open("", pebble.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	clock := cairn.NewManualClock(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC))
	cfg.Poll = time.Hour
	svc := &webhook.Service{Store: db, Config: cfg, Clock: clock, Render: func(a cairn.WatchAlert) any { return a }}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { svc.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return &fixture{db, svc, clock}
}

// subscribe creates account d1's endpoint at url for list.version events.
func (f *fixture) subscribe(t *testing.T, url string) *cairn.WebhookEndpoint {
	t.Helper()
	e, err := f.svc.Create(context.Background(), "d1", url, []string{cairn.EventListVersion})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// emitVersion emits the list.version event id with data.
func (f *fixture) emitVersion(t *testing.T, id string, data any) {
	t.Helper()
	if err := f.svc.Emit(context.Background(), "", cairn.EventListVersion, id, data); err != nil {
		t.Fatal(err)
	}
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
	e := f.subscribe(t, srv.URL+"/hook")
	f.emitVersion(t, "7", map[string]int{"listVersion": 7})
	first := webhooktest.Next(t, got)
	ts, _ := strconv.ParseInt(first.Timestamp, 10, 64)
	if !first.Verify(e.Secret) || ts != f.clock.Now().Unix() ||
		!strings.Contains(string(first.Body), `"type":"list.version"`) || !strings.Contains(string(first.Body), `"data":{"listVersion":7}`) {
		t.Fatalf("first attempt %+v %s", first, first.Body)
	}
	d := f.waitDelivery(t, e, func(d cairn.WebhookDelivery) bool { return d.Attempts == 1 })
	if d.Status != cairn.DeliveryPending || d.LastStatus != 500 || !d.NextAttemptAt.Equal(f.clock.Now().Add(5*time.Second)) {
		t.Fatalf("after a failure: %+v", d)
	}
	f.clock.Advance(5 * time.Second)
	f.svc.Wake()
	second := webhooktest.Next(t, got)
	if second.ID != first.ID || string(second.Body) != string(first.Body) {
		t.Fatalf("retry %+v, first %+v", second, first)
	}
	d = f.waitDelivery(t, e, func(d cairn.WebhookDelivery) bool { return d.Status == cairn.DeliveryDelivered })
	if d.Attempts != 2 || d.LastStatus != 204 {
		t.Fatalf("delivered: %+v", d)
	}
	// A second emission of one event enqueues nothing.
	f.emitVersion(t, "7", map[string]int{"listVersion": 7})
	f.waitDelivery(t, e, func(d cairn.WebhookDelivery) bool { return d.Status == cairn.DeliveryDelivered })
}

// TestDeliveryFailsAfterADay: an endpoint that always fails gets retries
// growing from 5 s to at most an hour for 24 hours; then the delivery is
// failed and the endpoint disabled, with the reason.
func TestDeliveryFailsAfterADay(t *testing.T) {
	f := newFixture(t, true)
	srv, got := receiver(t, 503)
	e := f.subscribe(t, srv.URL)
	f.emitVersion(t, "1", 1)
	var delays []time.Duration
	for attempts := 1; ; attempts++ {
		webhooktest.Next(t, got)
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
	f.emitVersion(t, "1", 1)
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
	e := f.subscribe(t, redirect.URL)
	f.emitVersion(t, "1", 1)
	d := f.waitDelivery(t, e, func(d cairn.WebhookDelivery) bool { return d.Attempts == 1 })
	if d.LastStatus != http.StatusTemporaryRedirect || d.Status != cairn.DeliveryPending || len(got) != 0 {
		t.Fatalf("redirected delivery %+v, %d requests to the target", d, len(got))
	}
}

// holdingReceiver is an endpoint that holds the first bound requests
// until bound of them are in flight at once (then answers every one at
// once); most reports the most requests it had in flight at once, n how
// many it got.
func holdingReceiver(t *testing.T, bound int) (srv *httptest.Server, most, n func() int) {
	var mu sync.Mutex
	inFlight, top, count := 0, 0, 0
	full := make(chan struct{})
	var once sync.Once
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		inFlight++
		top, count = max(top, inFlight), count+1
		if inFlight == bound {
			once.Do(func() { close(full) })
		}
		mine := count
		mu.Unlock()
		if mine <= bound {
			<-full // the first ones wait until the bound is reached
		}
		mu.Lock()
		inFlight--
		mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	read := func(p *int) func() int {
		return func() int {
			mu.Lock()
			defer mu.Unlock()
			return *p
		}
	}
	return srv, read(&top), read(&count)
}

// waitDelivered waits until the developer's endpoints have want
// deliveries delivered in all.
func (f *fixture) waitDelivered(t *testing.T, eps []*cairn.WebhookEndpoint, want int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		done := 0
		for _, e := range eps {
			ds, err := f.db.ListDeliveries(context.Background(), e.DeveloperID, e.ID, "", 100)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range ds {
				if d.Status == cairn.DeliveryDelivered {
					done++
				}
			}
		}
		if done == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("delivered %d of %d", done, want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestAttemptsBoundedPerEndpoint: ten deliveries due at once to one
// endpoint are sent at most PerEndpoint at a time (the receiver holds
// each request until PerEndpoint of them are in).
func TestAttemptsBoundedPerEndpoint(t *testing.T) {
	f := newFixture(t, true)
	bound := webhook.DefaultConfig().PerEndpoint
	srv, most, _ := holdingReceiver(t, bound)
	e := f.subscribe(t, srv.URL)
	for i := range 10 {
		f.emitVersion(t, strconv.Itoa(i), i)
	}
	f.waitDelivered(t, []*cairn.WebhookEndpoint{e}, 10)
	if most() > bound {
		t.Fatalf("%d attempts at once to one endpoint, at most %d", most(), bound)
	}
}

// TestAttemptsBoundedInTotal: deliveries due at once to four endpoints,
// each allowed 2 attempts at once, are sent at most Concurrency (3) at a
// time in all.
func TestAttemptsBoundedInTotal(t *testing.T) {
	cfg := webhook.DefaultConfig()
	cfg.AllowPrivate, cfg.Concurrency, cfg.PerEndpoint = true, 3, 2
	f := newFixtureConfig(t, cfg)
	srv, most, n := holdingReceiver(t, cfg.Concurrency)
	var eps []*cairn.WebhookEndpoint
	for i := range 4 {
		e := f.subscribe(t, srv.URL+"/"+strconv.Itoa(i))
		eps = append(eps, e)
	}
	for i := range 5 {
		f.emitVersion(t, strconv.Itoa(i), i)
	}
	f.waitDelivered(t, eps, 20)
	if most() != cfg.Concurrency || n() != 20 {
		t.Fatalf("%d attempts at once of %d, want at most (and reaching) %d", most(), n(), cfg.Concurrency)
	}
}

// TestResponseReadBounded: an endpoint answering 200 with an endless body
// is delivered: the sender reads at most MaxResponseBytes of it and
// closes the connection, which ends the receiver's writing after at most
// what the sockets' buffers hold (an unbounded read would take it until
// the attempt's timeout, far more).
func TestResponseReadBounded(t *testing.T) {
	f := newFixture(t, true)
	written := make(chan int, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunk := make([]byte, 4096)
		n := 0
		for {
			m, err := w.Write(chunk)
			if n += m; err != nil {
				written <- n
				return
			}
			w.(http.Flusher).Flush()
		}
	}))
	defer srv.Close()
	e := f.subscribe(t, srv.URL)
	f.emitVersion(t, "1", 1)
	d := f.waitDelivery(t, e, func(d cairn.WebhookDelivery) bool { return d.Attempts == 1 })
	if d.Status != cairn.DeliveryDelivered || d.LastStatus != 200 {
		t.Fatalf("delivery answered by an endless body: %+v", d)
	}
	select {
	case n := <-written:
		// What was read, and at most what the sockets' buffers hold.
		if n < webhook.MaxResponseBytes || n > 32<<20 {
			t.Fatalf("the receiver wrote %d bytes before the connection closed", n)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the sender kept the endless answer's connection open")
	}
}

// TestEnableAgain: a disabled endpoint is skipped by new events; enabled
// again, its failures are forgotten and the next event is delivered.
func TestEnableAgain(t *testing.T) {
	f := newFixture(t, true)
	srv, got := receiver(t, 204)
	ctx := context.Background()
	e := f.subscribe(t, srv.URL)
	if _, err := f.db.UpdateEndpoint(ctx, "d1", e.ID, func(e *cairn.WebhookEndpoint) error {
		e.Disabled, e.Reason, e.FailingSince = true, "Every delivery failed.", f.clock.Now().Add(-25*time.Hour)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	f.emitVersion(t, "1", 1)
	if ds, err := f.db.ListDeliveries(ctx, "d1", e.ID, "", 10); err != nil || len(ds) != 0 {
		t.Fatalf("deliveries to a disabled endpoint: %+v %v", ds, err)
	}
	if _, err := f.svc.Enable(ctx, "d2", e.ID); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("another account enabled it: %v", err)
	}
	ep, err := f.svc.Enable(ctx, "d1", e.ID)
	if err != nil || ep.Disabled || ep.Reason != "" || !ep.FailingSince.IsZero() {
		t.Fatalf("enabled: %+v %v", ep, err)
	}
	f.emitVersion(t, "2", 2)
	webhooktest.Next(t, got)
	f.waitDelivery(t, e, func(d cairn.WebhookDelivery) bool { return d.Status == cairn.DeliveryDelivered })
}
