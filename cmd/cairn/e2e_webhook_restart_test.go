package main

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/cairn-dev/cairn/webhook/webhooktest"
)

// TestWebhookSurvivesKill: a watchlist.hit whose first attempt failed is
// persisted; the process is killed with SIGKILL, started again on the
// same data dir, and sends it, under the same webhook-id, once the
// receiver answers.
func TestWebhookSurvivesKill(t *testing.T) {
	if testing.Short() {
		t.Skip("starts subprocesses")
	}
	var ok atomic.Bool
	recv, got := webhooktest.Receiver(t, func(int) int {
		if !ok.Load() {
			return http.StatusServiceUnavailable
		}
		return http.StatusOK
	})
	dir := t.TempDir()
	list := filepath.Join(t.TempDir(), "eth.txt")
	orig, err := os.ReadFile("testdata/sanctioned_addresses_ETH.txt")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(list, orig, 0o600); err != nil {
		t.Fatal(err)
	}
	const admin = "admin-test-token-0123456789abcdef"
	args := []string{"--listen", "127.0.0.1:0", "--data-dir", dir, "--default-sources=false", "--source", "list:ETH=" + list,
		"--deposit-mnemonic", testConfig(t, dir).DepositMnemonic, "--admin-token", admin, "--webhook-allow-private",
		"--webhook-poll-interval", "100ms"}
	proc := serveProcess(t, nil, args...)
	ts := proc.server()
	a := ts.register(t, "exchange")
	hook := ts.do(t, "POST", "/v1/webhooks", a.Key, map[string]any{"url": recv.URL, "events": []string{"watchlist.hit"}}).must(t, http.StatusCreated)
	const addr = "0x52908400098527886E0F7030069857D2E4169EE7"
	ts.do(t, "POST", "/v1/compliance/watchlists", a.Key, map[string]any{"name": "w", "addresses": []map[string]string{
		{"address": addr, "chain": "ethereum"}}}).must(t, http.StatusCreated)
	if err := os.WriteFile(list, append(orig, "\n"+addr+"\n"...), 0o600); err != nil {
		t.Fatal(err)
	}
	ts.do(t, "POST", "/v1/admin/ingest", admin, nil).must(t, http.StatusOK)
	first := webhooktest.Next(t, got).ID
	// The failed attempt is recorded before the kill.
	deliveries := func(ts *testServer) []map[string]any {
		var out []map[string]any
		r := ts.do(t, "GET", "/v1/webhooks/"+hook.str("id")+"/deliveries", a.Key, nil).must(t, http.StatusOK)
		b, _ := json.Marshal(r.JSON["deliveries"])
		_ = json.Unmarshal(b, &out)
		return out
	}
	eventually(t, "the failed attempt recorded", func() bool { ds := deliveries(ts); return len(ds) == 1 && ds[0]["attempts"] == 1.0 })
	if err := proc.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-proc.exited
	_ = proc.cmd.Wait()
	ok.Store(true)
	ts = serveProcess(t, nil, args...).server()
	if id := webhooktest.Next(t, got).ID; id != first {
		t.Fatalf("a delivery of another id after the restart: %s, want %s", id, first)
	}
	eventually(t, "the delivery delivered after the restart", func() bool { ds := deliveries(ts); return len(ds) == 1 && ds[0]["status"] == "delivered" })
	if alerts := ts.do(t, "GET", "/v1/compliance/alerts", a.Key, nil).must(t, http.StatusOK).JSON["alerts"].([]any); len(alerts) != 1 {
		t.Fatalf("alerts after the restart: %v", alerts)
	}
}
