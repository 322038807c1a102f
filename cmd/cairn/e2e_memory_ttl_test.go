package main

import (
	"context"
	"net/url"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
)

func TestMemoryTTL(t *testing.T) {
	clk := cairn.NewManualClock(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC))
	ts, a := memServer(t, 1000, func(m *Main) { m.Clock = clk })
	mk := func(key, ttl string) string {
		body := map[string]any{"key": key, "content": "x"}
		if ttl != "" {
			body["expiresIn"] = ttl
		}
		return ts.do(t, "POST", "/v1/memory", a.Key, body).must(t, 201).str("id")
	}
	soon, pinned, month, forever := mk("soon", "1h"), mk("pinned", "1h"), mk("month", "30d"), mk("forever", "")
	ts.do(t, "PATCH", "/v1/memory/"+pinned+"/pin", a.Key, nil).must(t, 200)
	blobExpiry := func(t *testing.T, versionID string) time.Time {
		t.Helper()
		info, err := ts.m.blobs.Stat(context.Background(), "agents/"+a.ID+"/v/"+versionID)
		if err != nil {
			t.Fatalf("stat %s: %v", versionID, err)
		}
		return info.ExpiresAt
	}
	t.Run("Expiring", func(t *testing.T) {
		bal := ts.balance(t, a.Key)
		r := ts.do(t, "GET", "/v1/memory/expiring?within=2h", a.Key, nil).must(t, 200)
		items := r.JSON["expiring"].([]any)
		if r.num("count") != 1 || items[0].(map[string]any)["id"] != soon || r.str("within") != "2h" {
			t.Fatalf("expiring: %s", r.Body)
		}
		if r := ts.do(t, "GET", "/v1/memory/expiring?within=31d", a.Key, nil).must(t, 200); r.num("count") != 2 {
			t.Fatalf("expiring 31d: %s", r.Body)
		}
		ts.do(t, "GET", "/v1/memory/expiring?within=1y", a.Key, nil).problem(t, 400, cairn.EINVALID)
		ts.wantBalance(t, a, bal)
	})
	t.Run("RenewFromNow", func(t *testing.T) {
		bal := ts.balance(t, a.Key)
		r := ts.do(t, "POST", "/v1/memory/ttl-alerts", a.Key, map[string]any{"renewIds": []string{month, cairn.NewID()}, "renewExpiresIn": "10d"}).must(t, 200)
		ren := r.JSON["renewed"].([]any)
		want := timestampOf(clk.Now().Add(10 * 24 * time.Hour))
		if r.num("renewedCount") != 1 || ren[0].(map[string]any)["newExpiresAt"] != want || ren[1].(map[string]any)["success"] != false || r.num("expiringCount") != 1 {
			t.Fatalf("renew: %s", r.Body)
		}
		if got := blobExpiry(t, month); !got.Equal(clk.Now().Add(10 * 24 * time.Hour)) {
			t.Fatalf("blob expiry %v not moved", got)
		}
		if !blobExpiry(t, pinned).IsZero() {
			t.Fatal("a pinned memory's blob expires")
		}
		ts.do(t, "POST", "/v1/memory/ttl-alerts", a.Key, map[string]any{"renewIds": []string{month}}).problem(t, 400, cairn.EINVALID)
		ts.do(t, "POST", "/v1/memory/ttl-alerts", a.Key, map[string]any{"renewIds": make([]string, 51), "renewExpiresIn": "1d"}).problem(t, 400, cairn.EINVALID)
		ts.do(t, "POST", "/v1/memory/ttl-alerts", a.Key, map[string]any{"within": "forever"}).problem(t, 400, cairn.EINVALID)
		ts.wantBalance(t, a, bal)
	})
	t.Run("ExpiredNeverReturnedThenSwept", func(t *testing.T) {
		clk.Advance(2 * time.Hour)
		ts.do(t, "GET", "/v1/memory/"+soon, a.Key, nil).problem(t, 404, cairn.EEXPIRED)
		ts.do(t, "GET", "/v1/memory/"+soon+"/history", a.Key, nil).problem(t, 404, cairn.EEXPIRED)
		ts.do(t, "GET", "/v1/memory/"+pinned, a.Key, nil).must(t, 200)
		r := ts.do(t, "GET", "/v1/memory?"+url.Values{"offset": {"0"}}.Encode(), a.Key, nil).must(t, 200)
		if r.num("total") != 3 {
			t.Fatalf("list with an expired memory: %s", r.Body)
		}
		if r := ts.do(t, "POST", "/v1/memory/search", a.Key, map[string]any{"query": "soon"}).must(t, 200); r.num("count") != 0 {
			t.Fatalf("search found an expired memory: %s", r.Body)
		}
		ts.m.sweepOnce(context.Background())
		if _, err := ts.m.blobs.Stat(context.Background(), "agents/"+a.ID+"/v/"+soon); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("blob after sweep: %v", err)
		}
		ts.do(t, "GET", "/v1/memory/"+pinned, a.Key, nil).must(t, 200)
		ts.do(t, "GET", "/v1/memory/"+forever, a.Key, nil).must(t, 200)
		ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "soon", "content": "again"}).must(t, 201) // key freed
		// Unpinning restores the expiry: the memory is expired at once.
		ts.do(t, "PATCH", "/v1/memory/"+pinned+"/pin", a.Key, nil).must(t, 200)
		ts.do(t, "GET", "/v1/memory/"+pinned, a.Key, nil).problem(t, 404, cairn.EEXPIRED)
	})
}

func timestampOf(t time.Time) string { return apitest.Timestamp(t) }

// TestMemoryExpiredInvisibleEverywhere: before the sweep, an expired
// memory is 404 on every endpoint that takes its id, absent from every
// listing, and its key is free for a new memory.
func TestMemoryExpiredInvisibleEverywhere(t *testing.T) {
	clk := cairn.NewManualClock(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC))
	ts, a := memServer(t, 1000, func(m *Main) { m.Clock = clk })
	v1 := ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "brief/note", "content": "short lived", "expiresIn": "1h",
		"metadata": map[string]any{"tags": []string{"brief"}}}).must(t, 201).str("id")
	v2 := ts.do(t, "PUT", "/v1/memory/"+v1, a.Key, map[string]any{"content": "short lived too"}).must(t, 200).str("id")
	file := ts.memUpload(t, a.Key, map[string]string{"type": "file", "key": "brief/file", "expiresIn": "1h"}, "f.txt", []byte("bytes")).must(t, 201).str("id")
	clk.Advance(2 * time.Hour)
	bal := ts.balance(t, a.Key)
	for _, tc := range []struct {
		method, path string
		body         any
		cost         int
	}{
		{"GET", "/v1/memory/" + v1, nil, 1},
		{"GET", "/v1/memory/" + v2, nil, 1},
		{"GET", "/v1/memory/" + file + "/download", nil, 1},
		{"GET", "/v1/memory/" + v2 + "/history", nil, 0},
		{"PUT", "/v1/memory/" + v2, map[string]any{"content": "revived?"}, 5},
		{"DELETE", "/v1/memory/" + v1, nil, 2},
		{"PATCH", "/v1/memory/" + v2 + "/pin", nil, 0},
		{"PATCH", "/v1/memory/" + v2 + "/importance", map[string]any{"importance": 0.9}, 0},
	} {
		// Before the sweep an expired memory is 404 with its own code.
		ts.do(t, tc.method, tc.path, a.Key, tc.body).problem(t, 404, cairn.EEXPIRED)
		bal -= tc.cost
		ts.wantBalance(t, a, bal)
	}
	r := ts.do(t, "POST", "/v1/memory/ttl-alerts", a.Key, map[string]any{"renewIds": []string{v2, file}, "renewExpiresIn": "1d", "within": "30d"}).must(t, 200)
	if r.num("renewedCount") != 0 || r.num("expiringCount") != 0 {
		t.Fatalf("ttl-alerts renewed or listed an expired memory: %s", r.Body)
	}
	r = ts.do(t, "POST", "/v1/memory/bulk-delete", a.Key, map[string]any{"ids": []string{v1, file}}).must(t, 200)
	if r.num("succeeded") != 0 {
		t.Fatalf("bulk-delete removed an expired memory: %s", r.Body)
	}
	for _, q := range []string{"", "?history=true", "?offset=0", "?pinned=false"} {
		if r := ts.do(t, "GET", "/v1/memory"+q, a.Key, nil).must(t, 200); len(r.JSON["memories"].([]any)) != 0 {
			t.Fatalf("list%s shows an expired memory: %s", q, r.Body)
		}
	}
	for _, body := range []map[string]any{{"query": "brief"}, {"tags": []string{"brief"}}, {"contentQuery": "lived"}} {
		if r := ts.do(t, "POST", "/v1/memory/search", a.Key, body).must(t, 200); r.num("count") != 0 {
			t.Fatalf("search %v finds an expired memory: %s", body, r.Body)
		}
	}
	if r := ts.do(t, "GET", "/v1/memory/expiring?within=30d", a.Key, nil).must(t, 200); r.num("count") != 0 {
		t.Fatalf("expiring lists an expired memory: %s", r.Body)
	}
	// The key of an expired memory is free before the sweep too: a 409
	// would tell that the invisible memory still exists.
	n := ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "brief/note", "content": "new life"}).must(t, 201)
	if n.num("version") != 1 {
		t.Fatalf("create over an expired key: %s", n.Body)
	}
	ts.memUpload(t, a.Key, map[string]string{"type": "file", "key": "brief/file"}, "g.txt", []byte("new bytes")).must(t, 201)
	if r := ts.do(t, "GET", "/v1/memory/"+n.str("id")+"/history", a.Key, nil).must(t, 200); r.num("totalVersions") != 1 {
		t.Fatalf("the new memory inherits the expired one's versions: %s", r.Body)
	}
	ts.do(t, "GET", "/v1/memory/"+v2, a.Key, nil).problem(t, 404, cairn.ENOTFOUND)
	ts.m.sweepOnce(t.Context())
	if g := ts.do(t, "GET", "/v1/memory/"+n.str("id"), a.Key, nil).must(t, 200); g.str("content") != "new life" {
		t.Fatalf("the sweep touched the new memory: %s", g.Body)
	}
}
