package api_test

import (
	"testing"

	"github.com/cairn-dev/cairn"
)

// TestMemoryIsolationEveryEndpoint: another agent's version id is 404 on
// every endpoint (never 412, 400 or a bulk success), changes nothing, and
// leaves no trace in the owner's audit log.
func TestMemoryIsolationEveryEndpoint(t *testing.T) {
	ts, a := memServer(t, 1000)
	b := ts.Register(t, "intruder")
	ts.TopUp(t, b, 1000)
	id := ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "secret/plan", "content": "a's", "expiresIn": "1d"}).Must(t, 201).Str("id")
	file := ts.MemUpload(t, a.Key, map[string]string{"type": "file", "key": "secret/file"}, "f.txt", []byte("a's file")).Must(t, 201).Str("id")
	auditBefore := len(ts.Do(t, "GET", "/v1/memory/audit", a.Key, nil).Must(t, 200).JSON["entries"].([]any))
	balA, balB := ts.Balance(t, a.Key), 1000
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
		ts.Do(t, tc.method, tc.path, b.Key, tc.body, tc.hdr...).Problem(t, 404, cairn.ENOTFOUND)
		balB -= tc.cost
	}
	r := ts.Do(t, "POST", "/v1/memory/ttl-alerts", b.Key, map[string]any{"renewIds": []string{id, file}, "renewExpiresIn": "365d"}).Must(t, 200)
	if r.Num("renewedCount") != 0 {
		t.Fatalf("b renewed a's memories: %s", r.Body)
	}
	r = ts.Do(t, "POST", "/v1/memory/bulk-delete", b.Key, map[string]any{"ids": []string{id, file}}).Must(t, 200)
	for _, it := range r.JSON["results"].([]any) {
		if it.(map[string]any)["status"] != 404.0 {
			t.Fatalf("bulk-delete of a's ids by b: %s", r.Body)
		}
	}
	balB -= 2 * 2 // memory.delete for each id: a 404 keeps its charge (spec 7)
	for _, q := range []string{"?history=true", "?offset=0"} {
		if r := ts.Do(t, "GET", "/v1/memory"+q, b.Key, nil).Must(t, 200); len(r.JSON["memories"].([]any)) != 0 {
			t.Fatalf("b lists a's memories: %s", r.Body)
		}
		balB--
	}
	if r := ts.Do(t, "POST", "/v1/memory/search", b.Key, map[string]any{"query": "secret", "contentQuery": "a"}).Must(t, 200); r.Num("count") != 0 {
		t.Fatalf("b finds a's memories: %s", r.Body)
	}
	balB--
	ts.WantBalance(t, b, balB)
	ts.WantBalance(t, a, balA)
	if g := ts.Do(t, "GET", "/v1/memory/"+id, a.Key, nil).Must(t, 200); g.Num("version") != 1 || g.Num("importance") != 0.5 || g.Str("content") != "a's" {
		t.Fatalf("a's memory changed: %s", g.Body)
	}
	if n := len(ts.Do(t, "GET", "/v1/memory/audit", a.Key, nil).Must(t, 200).JSON["entries"].([]any)); n != auditBefore+1 {
		t.Fatalf("a's audit has %d entries, want %d (b's attempts leaked in)", n, auditBefore+1)
	}
}
