package api_test

import (
	"fmt"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
)

// TestMemoryConcurrentPuts: PUTs racing on one memory with the same
// If-Match: exactly one wins, the others are 412 (charged); without
// If-Match every PUT gets its own version number.
func TestMemoryConcurrentPuts(t *testing.T) {
	ts, a := memServer(t, 10000)
	id := ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "race", "content": "v1"}).Must(t, 201).Str("id")
	const n = 8
	put := func(ifMatch string) []*apitest.Response {
		var hdr []string
		if ifMatch != "" {
			hdr = []string{"If-Match", ifMatch}
		}
		return apitest.Race(t, n, func(i int) (*apitest.Response, error) {
			return ts.Try(t, "PUT", "/v1/memory/"+id, a.Key, map[string]any{"content": fmt.Sprint("writer ", i)}, hdr...)
		})
	}
	bal := ts.Balance(t, a.Key)
	won := 0
	for _, r := range put(`"1"`) {
		switch r.Status {
		case 200:
			won++
			if r.Num("version") != 2 {
				t.Fatalf("winner: %s", r.Body)
			}
		case 412:
			r.Problem(t, 412, cairn.EPRECONDITION)
		default:
			t.Fatalf("racing PUT: %d %s", r.Status, r.Body)
		}
	}
	if won != 1 {
		t.Fatalf("%d conditional PUTs won, want 1", won)
	}
	ts.WantBalance(t, a, bal-5*n)
	seen := map[float64]bool{}
	for _, r := range put("") {
		r.Must(t, 200)
		seen[r.Num("version")] = true
	}
	if len(seen) != n {
		t.Fatalf("versions %v, want %d distinct", seen, n)
	}
	h := ts.Do(t, "GET", "/v1/memory/"+id+"/history", a.Key, nil).Must(t, 200)
	if h.Num("totalVersions") != 2+n {
		t.Fatalf("history: %s", h.Body)
	}
}

// TestMemoryConcurrentCreatesAndDeletes: racing creates of one key make
// one memory (the others 409, charged); racing deletes of one version
// delete it once (the others 404, charged).
func TestMemoryConcurrentCreatesAndDeletes(t *testing.T) {
	ts, a := memServer(t, 10000)
	const n = 8
	count := func(rs []*apitest.Response, status int) int {
		k := 0
		for _, r := range rs {
			if r.Status == status {
				k++
			}
		}
		return k
	}
	bal := ts.Balance(t, a.Key)
	rs := apitest.Race(t, n, func(i int) (*apitest.Response, error) {
		return ts.Try(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "race/key", "content": fmt.Sprint(i)})
	})
	if count(rs, 201) != 1 || count(rs, 409) != n-1 {
		t.Fatalf("racing creates: %d created, %d conflicts", count(rs, 201), count(rs, 409))
	}
	ts.WantBalance(t, a, bal-5*n)
	var id string
	for _, r := range rs {
		if r.Status == 201 {
			id = r.Str("id")
		}
	}
	bal = ts.Balance(t, a.Key)
	rs = apitest.Race(t, n, func(int) (*apitest.Response, error) { return ts.Try(t, "DELETE", "/v1/memory/"+id, a.Key, nil) })
	if count(rs, 200) != 1 || count(rs, 404) != n-1 {
		t.Fatalf("racing deletes: %d deleted, %d not found", count(rs, 200), count(rs, 404))
	}
	ts.WantBalance(t, a, bal-2*n)
	ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "race/key", "content": "again"}).Must(t, 201)
}
