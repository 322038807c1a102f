package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/chain"
)

// TestWebhookAnchorSynced: once a list version's roots are synced on an
// in-process chain, the webhooks subscribed to anchor.synced (and to
// list.version) get it, with the transaction and block.
func TestWebhookAnchorSynced(t *testing.T) {
	c := newSimChain(t)
	base, list := complianceConfig(t)
	cfg, setup := c.config(base)
	cfg.EVMOracle = false
	cfg.WebhookAllowPrivate, cfg.WebhookPollInterval = true, 50*time.Millisecond
	bodies := make(chan []byte, 20)
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		bodies <- b
	}))
	defer recv.Close()
	ts := startServer(t, cfg, setup)
	a := ts.register(t, "")
	waitAnchor(t, ts, c, 1, chain.AnchorSynced, true)
	ts.do(t, "POST", "/v1/webhooks", a.Key, map[string]any{"url": recv.URL, "events": []string{"anchor.synced", "list.version"}}).must(t, http.StatusCreated)
	eth, err := os.ReadFile(list)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(list, append(eth, "\n0x52908400098527886E0F7030069857D2E4169EE7\n"...), 0o600); err != nil {
		t.Fatal(err)
	}
	ts.do(t, "POST", "/v1/admin/ingest", admin, nil).must(t, http.StatusOK)
	st := waitAnchor(t, ts, c, 2, chain.AnchorSynced, true)
	seen := map[string]map[string]any{}
	for len(seen) < 2 {
		select {
		case b := <-bodies:
			var ev struct {
				Type string         `json:"type"`
				Data map[string]any `json:"data"`
			}
			if err := json.Unmarshal(b, &ev); err != nil {
				t.Fatal(err)
			}
			seen[ev.Type] = ev.Data
		case <-time.After(30 * time.Second):
			t.Fatalf("events %v", seen)
		}
	}
	s := seen["anchor.synced"]
	if s["listVersion"] != 2.0 || s["txHash"] != st.TxHash || s["blockNumber"] != float64(st.BlockNumber) || seen["list.version"]["listVersion"] != 2.0 {
		t.Fatalf("events %v, anchor %+v", seen, st)
	}
}
