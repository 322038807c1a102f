package main

import (
	"net/http"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/store/postgres/pgtest"
)

// TestWebhookMemoryExpiringCluster: two instances on one PostgreSQL
// schema, both sweeping and sending; a memory written to expire within
// the alert window is pushed to the account's memory.expiring webhook
// once (one delivery, one webhook-id), whichever instance the write and
// the subscription went to.
func TestWebhookMemoryExpiringCluster(t *testing.T) {
	url := pgtest.URL(t)
	schema := pgtest.Schema(t, url)
	recv, seen := idReceiver(t)
	instance := func() *testServer {
		return clusterInstance(t, url, schema, func(cfg *Config) { cfg.TTLSweepInterval = 100 * time.Millisecond })
	}
	a := instance()
	eventually(t, "the first instance leads", a.m.Leading)
	b := instance()
	ag := a.register(t, "agent")
	hook := b.do(t, "POST", "/v1/webhooks", ag.Key, map[string]any{"url": recv.URL, "events": []string{"memory.expiring"}}).must(t, http.StatusCreated)
	id := b.do(t, "POST", "/v1/memory", ag.Key, map[string]any{"key": "soon", "content": "x", "expiresIn": "2h"}).must(t, http.StatusCreated).str("id")
	b.do(t, "POST", "/v1/memory", ag.Key, map[string]any{"key": "later", "content": "x", "expiresIn": "3d"}).must(t, http.StatusCreated)
	var ds []any
	eventually(t, "memory.expiring delivered", func() bool {
		ds = a.do(t, "GET", "/v1/webhooks/"+hook.str("id")+"/deliveries", ag.Key, nil).must(t, http.StatusOK).JSON["deliveries"].([]any)
		return len(ds) > 0 && ds[0].(map[string]any)["status"] == "delivered"
	})
	if len(ds) != 1 || ds[0].(map[string]any)["eventType"] != "memory.expiring" {
		t.Fatalf("deliveries %v (want one: the memory within 24 h of its expiry, %s)", ds, id)
	}
	if ids := seen(); len(ids) != 1 {
		t.Fatalf("webhook ids received: %v", ids)
	}
}
