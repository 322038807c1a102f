package api_test

import (
	"context"
	"net/url"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
)

func TestMemoryTTL(t *testing.T) {
	ts, clk := clockedMemServer(t, time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC))
	a := ts.NewAgent(t, 1000)
	ts.Memory.InlineBytes = -1 // contents in blobs, whose expiry is tested
	mk := func(key, ttl string) string {
		body := map[string]any{"key": key, "content": "x"}
		if ttl != "" {
			body["expiresIn"] = ttl
		}
		return ts.Do(t, "POST", "/v1/memory", a.Key, body).Must(t, 201).Str("id")
	}
	soon, pinned, month, forever := mk("soon", "1h"), mk("pinned", "1h"), mk("month", "30d"), mk("forever", "")
	ts.Do(t, "PATCH", "/v1/memory/"+pinned+"/pin", a.Key, nil).Must(t, 200)
	blobExpiry := func(t *testing.T, versionID string) time.Time {
		t.Helper()
		info, err := ts.Blobs.Stat(context.Background(), "agents/"+a.ID+"/v/"+versionID)
		if err != nil {
			t.Fatalf("stat %s: %v", versionID, err)
		}
		return info.ExpiresAt
	}
	t.Run("Expiring", func(t *testing.T) {
		bal := ts.Balance(t, a.Key)
		r := ts.Do(t, "GET", "/v1/memory/expiring?within=2h", a.Key, nil).Must(t, 200)
		items := r.JSON["expiring"].([]any)
		if r.Num("count") != 1 || items[0].(map[string]any)["id"] != soon || r.Str("within") != "2h" {
			t.Fatalf("expiring: %s", r.Body)
		}
		if r := ts.Do(t, "GET", "/v1/memory/expiring?within=31d", a.Key, nil).Must(t, 200); r.Num("count") != 2 {
			t.Fatalf("expiring 31d: %s", r.Body)
		}
		ts.Do(t, "GET", "/v1/memory/expiring?within=1y", a.Key, nil).Problem(t, 400, cairn.EINVALID)
		ts.WantBalance(t, a, bal)
	})
	t.Run("RenewFromNow", func(t *testing.T) {
		bal := ts.Balance(t, a.Key)
		r := ts.Do(t, "POST", "/v1/memory/ttl-alerts", a.Key, map[string]any{"renewIds": []string{month, cairn.NewID()}, "renewExpiresIn": "10d"}).Must(t, 200)
		ren := r.JSON["renewed"].([]any)
		want := apitest.Timestamp(clk.Now().Add(10 * 24 * time.Hour))
		if r.Num("renewedCount") != 1 || ren[0].(map[string]any)["newExpiresAt"] != want || ren[1].(map[string]any)["success"] != false || r.Num("expiringCount") != 1 {
			t.Fatalf("renew: %s", r.Body)
		}
		if got := blobExpiry(t, month); !got.Equal(clk.Now().Add(10 * 24 * time.Hour)) {
			t.Fatalf("blob expiry %v not moved", got)
		}
		if !blobExpiry(t, pinned).IsZero() {
			t.Fatal("a pinned memory's blob expires")
		}
		ts.Do(t, "POST", "/v1/memory/ttl-alerts", a.Key, map[string]any{"renewIds": []string{month}}).Problem(t, 400, cairn.EINVALID)
		ts.Do(t, "POST", "/v1/memory/ttl-alerts", a.Key, map[string]any{"renewIds": make([]string, 51), "renewExpiresIn": "1d"}).Problem(t, 400, cairn.EINVALID)
		ts.Do(t, "POST", "/v1/memory/ttl-alerts", a.Key, map[string]any{"within": "forever"}).Problem(t, 400, cairn.EINVALID)
		ts.WantBalance(t, a, bal)
	})
	t.Run("ExpiredNeverReturnedThenSwept", func(t *testing.T) {
		clk.Advance(2 * time.Hour)
		ts.Do(t, "GET", "/v1/memory/"+soon, a.Key, nil).Problem(t, 404, cairn.EEXPIRED)
		ts.Do(t, "GET", "/v1/memory/"+soon+"/history", a.Key, nil).Problem(t, 404, cairn.EEXPIRED)
		ts.Do(t, "GET", "/v1/memory/"+pinned, a.Key, nil).Must(t, 200)
		r := ts.Do(t, "GET", "/v1/memory?"+url.Values{"offset": {"0"}}.Encode(), a.Key, nil).Must(t, 200)
		if r.Num("total") != 3 {
			t.Fatalf("list with an expired memory: %s", r.Body)
		}
		if r := ts.Do(t, "POST", "/v1/memory/search", a.Key, map[string]any{"query": "soon"}).Must(t, 200); r.Num("count") != 0 {
			t.Fatalf("search found an expired memory: %s", r.Body)
		}
		ts.Sweep(t)
		if _, err := ts.Blobs.Stat(context.Background(), "agents/"+a.ID+"/v/"+soon); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("blob after sweep: %v", err)
		}
		ts.Do(t, "GET", "/v1/memory/"+pinned, a.Key, nil).Must(t, 200)
		ts.Do(t, "GET", "/v1/memory/"+forever, a.Key, nil).Must(t, 200)
		ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "soon", "content": "again"}).Must(t, 201) // key freed
		// Unpinning restores the expiry: the memory is expired at once.
		ts.Do(t, "PATCH", "/v1/memory/"+pinned+"/pin", a.Key, nil).Must(t, 200)
		ts.Do(t, "GET", "/v1/memory/"+pinned, a.Key, nil).Problem(t, 404, cairn.EEXPIRED)
	})
}

// TestMemoryExpiredInvisibleEverywhere: before the sweep, an expired
// memory is 404 on every endpoint that takes its id, absent from every
// listing, and its key is free for a new memory.
func TestMemoryExpiredInvisibleEverywhere(t *testing.T) {
	ts, clk := clockedMemServer(t, time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC))
	a := ts.NewAgent(t, 1000)
	v1 := ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "brief/note", "content": "short lived", "expiresIn": "1h",
		"metadata": map[string]any{"tags": []string{"brief"}}}).Must(t, 201).Str("id")
	v2 := ts.Do(t, "PUT", "/v1/memory/"+v1, a.Key, map[string]any{"content": "short lived too"}).Must(t, 200).Str("id")
	file := ts.MemUpload(t, a.Key, map[string]string{"type": "file", "key": "brief/file", "expiresIn": "1h"}, "f.txt", []byte("bytes")).Must(t, 201).Str("id")
	clk.Advance(2 * time.Hour)
	bal := ts.Balance(t, a.Key)
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
		ts.Do(t, tc.method, tc.path, a.Key, tc.body).Problem(t, 404, cairn.EEXPIRED)
		bal -= tc.cost
		ts.WantBalance(t, a, bal)
	}
	r := ts.Do(t, "POST", "/v1/memory/ttl-alerts", a.Key, map[string]any{"renewIds": []string{v2, file}, "renewExpiresIn": "1d", "within": "30d"}).Must(t, 200)
	if r.Num("renewedCount") != 0 || r.Num("expiringCount") != 0 {
		t.Fatalf("ttl-alerts renewed or listed an expired memory: %s", r.Body)
	}
	r = ts.Do(t, "POST", "/v1/memory/bulk-delete", a.Key, map[string]any{"ids": []string{v1, file}}).Must(t, 200)
	if r.Num("succeeded") != 0 {
		t.Fatalf("bulk-delete removed an expired memory: %s", r.Body)
	}
	for _, q := range []string{"", "?history=true", "?offset=0", "?pinned=false"} {
		if r := ts.Do(t, "GET", "/v1/memory"+q, a.Key, nil).Must(t, 200); len(r.JSON["memories"].([]any)) != 0 {
			t.Fatalf("list%s shows an expired memory: %s", q, r.Body)
		}
	}
	for _, body := range []map[string]any{{"query": "brief"}, {"tags": []string{"brief"}}, {"contentQuery": "lived"}} {
		if r := ts.Do(t, "POST", "/v1/memory/search", a.Key, body).Must(t, 200); r.Num("count") != 0 {
			t.Fatalf("search %v finds an expired memory: %s", body, r.Body)
		}
	}
	if r := ts.Do(t, "GET", "/v1/memory/expiring?within=30d", a.Key, nil).Must(t, 200); r.Num("count") != 0 {
		t.Fatalf("expiring lists an expired memory: %s", r.Body)
	}
	// The key of an expired memory is free before the sweep too: a 409
	// would tell that the invisible memory still exists.
	n := ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "brief/note", "content": "new life"}).Must(t, 201)
	if n.Num("version") != 1 {
		t.Fatalf("create over an expired key: %s", n.Body)
	}
	ts.MemUpload(t, a.Key, map[string]string{"type": "file", "key": "brief/file"}, "g.txt", []byte("new bytes")).Must(t, 201)
	if r := ts.Do(t, "GET", "/v1/memory/"+n.Str("id")+"/history", a.Key, nil).Must(t, 200); r.Num("totalVersions") != 1 {
		t.Fatalf("the new memory inherits the expired one's versions: %s", r.Body)
	}
	ts.Do(t, "GET", "/v1/memory/"+v2, a.Key, nil).Problem(t, 404, cairn.ENOTFOUND)
	ts.Sweep(t)
	if g := ts.Do(t, "GET", "/v1/memory/"+n.Str("id"), a.Key, nil).Must(t, 200); g.Str("content") != "new life" {
		t.Fatalf("the sweep touched the new memory: %s", g.Body)
	}
}
