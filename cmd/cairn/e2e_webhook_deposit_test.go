package main

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/webhook/webhooktest"
)

// TestWebhookDepositCredited: a credited APT deposit (a fake node serving
// a recorded mainnet transfer) is pushed, signed, to the account's
// webhook subscribed to deposit.credited, with the credits and balance.
func TestWebhookDepositCredited(t *testing.T) {
	node := newFakeAptos(t)
	recv, got := webhooktest.Receiver(t, nil)
	cfg := testConfig(t, t.TempDir())
	cfg.AptosNodeURL, cfg.CreditsPerAPT = node.srv.URL+"/v1", 1000
	cfg.WebhookAllowPrivate, cfg.WebhookPollInterval = true, 50*time.Millisecond
	ts := startServer(t, cfg)
	a := ts.register(t, "payer")
	hook := ts.do(t, "POST", "/v1/webhooks", a.Key, map[string]any{"url": recv.URL, "events": []string{"deposit.credited"}}).must(t, http.StatusCreated)
	node.set(txHash(1), faDeposit(t, txHash(1), a.Address, 50_000_000, true))
	ts.do(t, "POST", "/v1/billing/agent/deposit", a.Key, map[string]any{"txHash": txHash(1)}).must(t, http.StatusCreated)
	r := webhooktest.Next(t, got)
	var body struct {
		Type string         `json:"type"`
		Data map[string]any `json:"data"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil || !r.Verify(hook.str("secret")) {
		t.Fatalf("delivery %s: %v", r.Body, err)
	}
	if body.Type != "deposit.credited" || body.Data["txHash"] != txHash(1) || body.Data["creditsAdded"] != 500.0 ||
		body.Data["creditBalance"] != 600.0 || body.Data["octas"] != "50000000" {
		t.Fatalf("deposit.credited %s", r.Body)
	}
}
