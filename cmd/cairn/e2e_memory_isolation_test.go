package main

import (
	"testing"

	"github.com/cairn-dev/cairn"
)

// TestMemoryIsolationEveryEndpoint: another agent's version id is 404 on
// every endpoint (never 412, 400 or a bulk success), changes nothing, and
// leaves no trace in the owner's audit log.
func TestMemoryIsolationEveryEndpoint(t *testing.T) {
	ts, a := memServer(t, 1000)
	b := ts.register(t, "intruder")
	ts.topUp(t, b, 1000)
	id := ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "secret/plan", "content": "a's", "expiresIn": "1d"}).must(t, 201).str("id")
	file := ts.memUpload(t, a.Key, map[string]string{"type": "file", "key": "secret/file"}, "f.txt", []byte("a's file")).must(t, 201).str("id")
	auditBefore := len(ts.do(t, "GET", "/v1/memory/audit", a.Key, nil).must(t, 200).JSON["entries"].([]any))
	balA, balB := ts.balance(t, a.Key), 1000
	for _, tc := range []struct {
		method, path string
		body         any
		hdr          []string
		cost         int
	}{
		{"GET", "/v1/memory/" + file + "/download", nil, nil, 1},
		{"GET", "/v1/memory/" + id + "/history", nil, nil, 0},
		{"PUT", "/v1/memory/" + id, map[string]any{"content": "b's"}, []string{"If-Match", `"7"`}, 5},
		{"PATCH", "/v1/memory/" + id + "/importance", map[string]any{"importance": 0}, nil, 0},
		{"PATCH", "/v1/memory/" + file + "/pin", nil, nil, 0},
	} {
		ts.do(t, tc.method, tc.path, b.Key, tc.body, tc.hdr...).problem(t, 404, cairn.ENOTFOUND)
		balB -= tc.cost
	}
	r := ts.do(t, "POST", "/v1/memory/ttl-alerts", b.Key, map[string]any{"renewIds": []string{id, file}, "renewExpiresIn": "365d"}).must(t, 200)
	if r.num("renewedCount") != 0 {
		t.Fatalf("b renewed a's memories: %s", r.Body)
	}
	r = ts.do(t, "POST", "/v1/memory/bulk-delete", b.Key, map[string]any{"ids": []string{id, file}}).must(t, 200)
	for _, it := range r.JSON["results"].([]any) {
		if it.(map[string]any)["status"] != 404.0 {
			t.Fatalf("bulk-delete of a's ids by b: %s", r.Body)
		}
	}
	balB -= 2 * 2 // memory.delete for each id: a 404 keeps its charge (spec 7)
	for _, q := range []string{"?history=true", "?offset=0"} {
		if r := ts.do(t, "GET", "/v1/memory"+q, b.Key, nil).must(t, 200); len(r.JSON["memories"].([]any)) != 0 {
			t.Fatalf("b lists a's memories: %s", r.Body)
		}
		balB--
	}
	if r := ts.do(t, "POST", "/v1/memory/search", b.Key, map[string]any{"query": "secret", "contentQuery": "a"}).must(t, 200); r.num("count") != 0 {
		t.Fatalf("b finds a's memories: %s", r.Body)
	}
	balB--
	ts.wantBalance(t, b, balB)
	ts.wantBalance(t, a, balA)
	if g := ts.do(t, "GET", "/v1/memory/"+id, a.Key, nil).must(t, 200); g.num("version") != 1 || g.num("importance") != 0.5 || g.str("content") != "a's" {
		t.Fatalf("a's memory changed: %s", g.Body)
	}
	if n := len(ts.do(t, "GET", "/v1/memory/audit", a.Key, nil).must(t, 200).JSON["entries"].([]any)); n != auditBefore+1 {
		t.Fatalf("a's audit has %d entries, want %d (b's attempts leaked in)", n, auditBefore+1)
	}
}
