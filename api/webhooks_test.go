package api_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/webhook/webhooktest"
)

// hookReceiver is a webhook endpoint on 127.0.0.1 that fails while
// failing is set.
func hookReceiver(t *testing.T) (*httptest.Server, chan webhooktest.Request, *atomic.Bool) {
	var failing atomic.Bool
	srv, got := webhooktest.Receiver(t, func(int) int {
		if failing.Load() {
			return http.StatusServiceUnavailable
		}
		return http.StatusOK
	})
	return srv, got, &failing
}

// nextHooks waits for a request of each event type (others skipped),
// checking every signature with secret, and returns them by type with
// their decoded bodies.
func nextHooks(t *testing.T, got chan webhooktest.Request, secret string, events ...string) (map[string]webhooktest.Request, map[string]map[string]any) {
	t.Helper()
	reqs, bodies := map[string]webhooktest.Request{}, map[string]map[string]any{}
	deadline := time.After(30 * time.Second)
	for len(reqs) < len(events) {
		select {
		case r := <-got:
			var b map[string]any
			if err := json.Unmarshal(r.Body, &b); err != nil {
				t.Fatal(err)
			}
			if !r.Verify(secret) {
				t.Fatalf("a delivery whose signature does not verify: %+v", r)
			}
			if typ, _ := b["type"].(string); slices.Contains(events, typ) {
				reqs[typ], bodies[typ] = r, b
			}
		case <-deadline:
			t.Fatalf("deliveries of %v: only %v", events, reqs)
		}
	}
	return reqs, bodies
}

// nextHook is nextHooks of one event type.
func nextHook(t *testing.T, got chan webhooktest.Request, secret, event string) (webhooktest.Request, map[string]any) {
	t.Helper()
	reqs, bodies := nextHooks(t, got, secret, event)
	return reqs[event], bodies[event]
}

// TestWebhooksEndToEnd: an exchange registers a webhook and a watchlist;
// the list version that lists a watched address sends a signed
// watchlist.hit with the alert and its proof, and list.version with the
// counts; the deliveries are listed, a delivery is sent again under its
// id, a rotated secret signs from then on, and another account sees
// nothing of the webhook.
func TestWebhooksEndToEnd(t *testing.T) {
	eth, xbt := apitest.ListFiles(t)
	ls := newMemServer(t, apitest.Lists(t, "list:ETH="+eth, "list:XBT="+xbt))
	a, b := ls.NewAgent(t, 100), ls.NewAgent(t, 100)
	srv, got, _ := hookReceiver(t)
	hook := ls.Do(t, "POST", "/v1/webhooks", a.Key, map[string]any{"url": srv.URL + "/cairn", "events": []string{"watchlist.hit", "list.version"}}).
		Must(t, http.StatusCreated)
	id, secret := hook.Str("id"), hook.Str("secret")
	if !strings.HasPrefix(secret, "whsec_") || hook.JSON["enabled"] != true {
		t.Fatalf("created %s", hook.Body)
	}
	if g := ls.Do(t, "GET", "/v1/webhooks/"+id, a.Key, nil).Must(t, http.StatusOK); g.JSON["secret"] != nil {
		t.Fatalf("the secret is shown again: %s", g.Body)
	}
	ls.Do(t, "GET", "/v1/webhooks/"+id, b.Key, nil).Problem(t, http.StatusNotFound, "not_found")
	ls.Do(t, "POST", "/v1/webhooks", a.Key, map[string]any{"url": srv.URL, "events": []string{"nope"}}).Problem(t, http.StatusBadRequest, "invalid")
	ls.Do(t, "POST", "/v1/webhooks", a.Key, map[string]any{"url": "ftp://x", "events": []string{"list.version"}}).Problem(t, http.StatusBadRequest, "invalid")
	ls.Do(t, "POST", "/v1/compliance/watchlists", a.Key, map[string]any{"name": "w", "addresses": []map[string]string{
		{"address": watched, "chain": "ethereum"}}}).Must(t, http.StatusCreated)

	orig, err := os.ReadFile(eth)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(eth, append(append([]byte{}, orig...), "\n"+watched+"\n"...), 0o600); err != nil {
		t.Fatal(err)
	}
	ing := ls.Do(t, "POST", "/v1/admin/ingest", apitest.AdminToken, nil).Must(t, http.StatusOK)
	reqs, bodies := nextHooks(t, got, secret, "watchlist.hit", "list.version")
	hit, data := reqs["watchlist.hit"], bodies["watchlist.hit"]["data"].(map[string]any)
	if data["change"] != "sanctioned" || data["address"] != watched || data["listVersion"] != ing.Num("listVersion") ||
		!strings.Contains(data["proofUrl"].(string), "/v1/compliance/merkle-proof?") {
		t.Fatalf("watchlist.hit %s", hit.Body)
	}
	if p := ls.Do(t, "GET", data["proofUrl"].(string), a.Key, nil).Must(t, http.StatusOK); p.JSON["listed"] != true {
		t.Fatalf("the proof of the hit: %s", p.Body)
	}
	if v := bodies["list.version"]["data"].(map[string]any); v["listVersion"] != ing.Num("listVersion") || v["added"] != 1.0 {
		t.Fatalf("list.version %v", bodies["list.version"])
	}

	ds := ls.Do(t, "GET", "/v1/webhooks/"+id+"/deliveries", a.Key, nil).Must(t, http.StatusOK).JSON["deliveries"].([]any)
	var hitDelivery map[string]any
	for _, d := range ds {
		if d := d.(map[string]any); d["id"] == hit.ID {
			hitDelivery = d
		}
	}
	if len(ds) != 2 || hitDelivery == nil || hitDelivery["eventType"] != "watchlist.hit" {
		t.Fatalf("deliveries %v", ds)
	}
	ls.Do(t, "POST", "/v1/webhooks/"+id+"/deliveries/"+hit.ID+"/redeliver", b.Key, nil).Problem(t, http.StatusNotFound, "not_found")
	rot := ls.Do(t, "POST", "/v1/webhooks/"+id+"/rotate-secret", a.Key, nil).Must(t, http.StatusOK)
	if rot.Str("secret") == secret {
		t.Fatal("rotation kept the secret")
	}
	ls.Do(t, "POST", "/v1/webhooks/"+id+"/deliveries/"+hit.ID+"/redeliver", a.Key, nil).Must(t, http.StatusAccepted)
	again, _ := nextHook(t, got, rot.Str("secret"), "watchlist.hit")
	if again.ID != hit.ID || string(again.Body) != string(hit.Body) {
		t.Fatalf("redelivered %+v, first %+v", again, hit)
	}
	ls.Do(t, "DELETE", "/v1/webhooks/"+id, b.Key, nil).Problem(t, http.StatusNotFound, "not_found")
	ls.Do(t, "DELETE", "/v1/webhooks/"+id, a.Key, nil).Must(t, http.StatusNoContent)
	ls.Do(t, "GET", "/v1/webhooks/"+id+"/deliveries", a.Key, nil).Problem(t, http.StatusNotFound, "not_found")
}

// TestWebhookRetriedAfterReceiverFailure: a receiver that fails gets the
// delivery again, under the same id, once it recovers.
func TestWebhookRetriedAfterReceiverFailure(t *testing.T) {
	eth, xbt := apitest.ListFiles(t)
	clock := cairn.NewManualClock(time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC))
	ls := newMemServer(t, apitest.WithClock(clock), apitest.Lists(t, "list:ETH="+eth, "list:XBT="+xbt))
	a := ls.NewAgent(t, 100)
	srv, got, failing := hookReceiver(t)
	failing.Store(true)
	hook := ls.Do(t, "POST", "/v1/webhooks", a.Key, map[string]any{"url": srv.URL, "events": []string{"list.version"}}).Must(t, http.StatusCreated)
	orig, err := os.ReadFile(eth)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(eth, append(orig, "\n"+watched+"\n"...), 0o600); err != nil {
		t.Fatal(err)
	}
	ls.Do(t, "POST", "/v1/admin/ingest", apitest.AdminToken, nil).Must(t, http.StatusOK)
	first, _ := nextHook(t, got, hook.Str("secret"), "list.version")
	failing.Store(false)
	// The first retry is due 5 s after the failure.
	waitFor(t, func() bool {
		ds := ls.Do(t, "GET", "/v1/webhooks/"+hook.Str("id")+"/deliveries", a.Key, nil).Must(t, http.StatusOK).JSON["deliveries"].([]any)
		return len(ds) == 1 && ds[0].(map[string]any)["attempts"] == 1.0 && ds[0].(map[string]any)["lastStatus"] == 503.0
	})
	clock.Advance(5 * time.Second)
	second, _ := nextHook(t, got, hook.Str("secret"), "list.version")
	if second.ID != first.ID || string(second.Body) != string(first.Body) {
		t.Fatalf("retry %+v, first %+v", second, first)
	}
	waitFor(t, func() bool {
		ds := ls.Do(t, "GET", "/v1/webhooks/"+hook.Str("id")+"/deliveries", a.Key, nil).Must(t, http.StatusOK).JSON["deliveries"].([]any)
		return ds[0].(map[string]any)["status"] == "delivered"
	})
}

// waitFor polls ok until it holds (failing after 30 s).
func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
