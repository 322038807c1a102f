package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/webhook"
)

// TestWebhookDepositCredited: a credited APT deposit (a fake node serving
// a recorded mainnet transfer) is pushed, signed, to the account's
// webhook subscribed to deposit.credited, with the credits and balance.
func TestWebhookDepositCredited(t *testing.T) {
	node := newFakeAptos(t)
	type req struct {
		id, ts, sig string
		body        []byte
	}
	got := make(chan req, 10)
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- req{r.Header.Get("webhook-id"), r.Header.Get("webhook-timestamp"), r.Header.Get("webhook-signature"), b}
	}))
	defer recv.Close()
	cfg := testConfig(t, t.TempDir())
	cfg.AptosNodeURL, cfg.CreditsPerAPT = node.srv.URL+"/v1", 1000
	cfg.WebhookAllowPrivate, cfg.WebhookPollInterval = true, 50*time.Millisecond
	ts := startServer(t, cfg)
	a := ts.register(t, "payer")
	hook := ts.do(t, "POST", "/v1/webhooks", a.Key, map[string]any{"url": recv.URL, "events": []string{"deposit.credited"}}).must(t, http.StatusCreated)
	node.set(txHash(1), faDeposit(t, txHash(1), a.Address, 50_000_000, true))
	ts.do(t, "POST", "/v1/billing/agent/deposit", a.Key, map[string]any{"txHash": txHash(1)}).must(t, http.StatusCreated)
	var r req
	select {
	case r = <-got:
	case <-time.After(30 * time.Second):
		t.Fatal("no deposit.credited")
	}
	sec, _ := strconv.ParseInt(r.ts, 10, 64)
	var body struct {
		Type string         `json:"type"`
		Data map[string]any `json:"data"`
	}
	if err := json.Unmarshal(r.body, &body); err != nil || !webhook.Verify(hook.str("secret"), r.id, sec, r.body, r.sig) {
		t.Fatalf("delivery %s: %v", r.body, err)
	}
	if body.Type != "deposit.credited" || body.Data["txHash"] != txHash(1) || body.Data["creditsAdded"] != 500.0 ||
		body.Data["creditBalance"] != 600.0 || body.Data["octas"] != "50000000" {
		t.Fatalf("deposit.credited %s", r.body)
	}
}
