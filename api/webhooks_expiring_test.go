package api_test

import (
	"net/http"
	"testing"
	"time"
)

// TestWebhookMemoryExpiring: the TTL sweep sends memory.expiring, signed,
// to the developer's endpoints subscribed to it for each memory entering
// the 24 h alert window, once per (memory, expiry) however many sweeps
// find it; a renewal into the window is a new event; another account's
// memories and pinned ones send nothing.
func TestWebhookMemoryExpiring(t *testing.T) {
	ts, clock := clockedMemServer(t, time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	a, b := ts.NewAgent(t, 100), ts.NewAgent(t, 100)
	srv, got, _ := hookReceiver(t)
	hook := ts.Do(t, "POST", "/v1/webhooks", a.Key, map[string]any{"url": srv.URL, "events": []string{"memory.expiring"}}).
		Must(t, http.StatusCreated)
	id, secret := hook.Str("id"), hook.Str("secret")
	write := func(key, agentKey, expiresIn string) string {
		return ts.Do(t, "POST", "/v1/memory", agentKey, map[string]any{"key": key, "content": "x", "expiresIn": expiresIn}).
			Must(t, http.StatusCreated).Str("id")
	}
	soon, later := write("soon", a.Key, "12h"), write("later", a.Key, "2d")
	ts.Do(t, "PATCH", "/v1/memory/"+write("pinned", a.Key, "1h")+"/pin", a.Key, map[string]any{"pinned": true}).Must(t, http.StatusOK)
	write("other", b.Key, "1h")
	deliveries := func() int {
		return len(ts.Do(t, "GET", "/v1/webhooks/"+id+"/deliveries", a.Key, nil).Must(t, http.StatusOK).JSON["deliveries"].([]any))
	}

	ts.Sweep(t)
	req, body := nextHook(t, got, secret, "memory.expiring")
	data := body["data"].(map[string]any)
	if data["key"] != "soon" || data["id"] != soon || data["agentId"] != a.ID ||
		data["expiresAt"] != clock.Now().Add(12*time.Hour).Format(time.RFC3339) {
		t.Fatalf("memory.expiring %s", req.Body)
	}
	ts.Sweep(t) // the same memory and expiry: no second event
	if n := deliveries(); n != 1 {
		t.Fatalf("%d deliveries after two sweeps, want 1", n)
	}

	clock.Advance(25 * time.Hour) // "soon" expired, "later" 23 h away
	ts.Sweep(t)
	_, body = nextHook(t, got, secret, "memory.expiring")
	if data := body["data"].(map[string]any); data["key"] != "later" || data["id"] != later {
		t.Fatalf("the second memory.expiring %v", body)
	}
	// Renewed for 20 h: a new expiry, in the window, is a new event.
	ts.Do(t, "POST", "/v1/memory/ttl-alerts", a.Key, map[string]any{"renewIds": []string{later}, "renewExpiresIn": "20h"}).
		Must(t, http.StatusOK)
	ts.Sweep(t)
	_, body = nextHook(t, got, secret, "memory.expiring")
	if data := body["data"].(map[string]any); data["key"] != "later" || data["expiresAt"] != clock.Now().Add(20*time.Hour).Format(time.RFC3339) {
		t.Fatalf("the renewed memory.expiring %v", body)
	}
	ts.Sweep(t)
	if n := deliveries(); n != 3 {
		t.Fatalf("%d deliveries, want 3 (soon, later, later renewed; no pinned, no other account's)", n)
	}
}
