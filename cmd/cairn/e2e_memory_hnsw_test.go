package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
)

// TestMemoryVectorSearchHNSW runs vector search over HTTP with
// --vector-hnsw-threshold 50, so that the agent's client space is searched
// through an HNSW graph (hash-v1 stays exact): results equal the exact
// search's (with 90 vectors the graph walk sees them all), a filter that
// fewer than limit vectors pass is answered by the exact scan, deleted,
// replaced and expired memories disappear, and the graphs are built again
// from the store at restart. A restart with the threshold 0 (exact only)
// gives the same answers.
func TestMemoryVectorSearchHNSW(t *testing.T) {
	const n, dim = 90, 12
	dir := t.TempDir()
	cfg := testConfig(t, dir)
	cfg.WriteLimitPerAgent, cfg.RateLimitPerKey = 100000, 100000
	cfg.VectorHNSWThreshold = 50
	clk := cairn.NewManualClock(time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC))
	ts := startServer(t, cfg, func(m *Main) { m.Clock = clk })
	a := ts.register(t, "hnsw")
	ts.topUp(t, a, 5000)

	r := rand.New(rand.NewPCG(1, 14))
	vecs := map[string][]float64{}
	ids := map[string]string{}
	randVec := func() []float64 {
		v := make([]float64, dim)
		for j := range v {
			v[j] = r.NormFloat64()
		}
		return v
	}
	words := []string{"deploy", "payment", "garden", "tomato", "invoice", "cluster", "rollback", "staging", "roses", "ledger"}
	for i := range n {
		k := fmt.Sprintf("notes/%03d", i)
		vecs[k] = randVec()
		body := map[string]any{"key": k, "content": fmt.Sprintf("%s %s note %d", words[i%10], words[(i/10)%10], i),
			"embedding": map[string]any{"space": "emb", "model": "m", "values": vecs[k]}}
		if i%30 == 0 {
			body["type"] = "episodic" // 3 of 90
		}
		if i == 7 {
			body["expiresIn"] = "1h"
		}
		ids[k] = ts.do(t, "POST", "/v1/memory", a.Key, body).must(t, 201).str("id")
	}
	vx := ts.m.memory.Vectors
	vx.Settle()
	if s := vx.Space(a.ID, "emb"); s.GraphNodes != n || s.Vectors != n {
		t.Fatalf("client space: %+v", s)
	}
	// hash-v1 (sparse lexical vectors) is always scanned exactly.
	if s := vx.Space(a.ID, "hash-v1"); s.GraphNodes != 0 || s.Vectors != n {
		t.Fatalf("hash-v1: %+v", s)
	}

	type hit struct {
		Key, ID string
		Version float64
		Score   float64
	}
	search := func(t *testing.T, body map[string]any) []hit {
		t.Helper()
		res := ts.do(t, "POST", "/v1/memory/vector-search", a.Key, body).must(t, 200)
		var hs []hit
		for _, h := range res.JSON["results"].([]any) {
			h := h.(map[string]any)
			hs = append(hs, hit{h["key"].(string), h["id"].(string), h["version"].(float64), h["score"].(float64)})
		}
		return hs
	}
	// exact is the expected answer, computed here: cosine similarity of
	// every live vector that passes keep, best first, ties by key.
	exact := func(q []float64, limit int, keep func(k string) bool) []string {
		var ks []string
		for k := range vecs {
			if keep == nil || keep(k) {
				ks = append(ks, k)
			}
		}
		cos := func(k string) float64 {
			var d, na, nb float64
			for j := range q {
				d, na, nb = d+q[j]*vecs[k][j], na+q[j]*q[j], nb+vecs[k][j]*vecs[k][j]
			}
			return d / math.Sqrt(na*nb)
		}
		slices.SortFunc(ks, func(x, y string) int {
			if cx, cy := cos(x), cos(y); math.Abs(cx-cy) > 1e-9 {
				if cx > cy {
					return -1
				}
				return 1
			}
			if x < y {
				return -1
			}
			return 1
		})
		return ks[:min(limit, len(ks))]
	}
	keys := func(hs []hit) []string {
		var ks []string
		for _, h := range hs {
			ks = append(ks, h.Key)
		}
		return ks
	}
	vq := func(v []float64, extra ...any) map[string]any {
		b := map[string]any{"vector": map[string]any{"space": "emb", "values": v}, "limit": 10}
		for i := 0; i+1 < len(extra); i += 2 {
			b[extra[i].(string)] = extra[i+1]
		}
		return b
	}
	queries := [][]float64{randVec(), randVec(), randVec(), vecs["notes/042"]}

	t.Run("GraphEqualsExact", func(t *testing.T) {
		before := vx.Stats()
		for _, q := range queries {
			got := search(t, vq(q))
			if want := exact(q, 10, nil); fmt.Sprint(keys(got)) != fmt.Sprint(want) {
				t.Fatalf("got %v, want %v", keys(got), want)
			}
			for _, h := range got {
				if h.ID != ids[h.Key] || h.Version != 1 {
					t.Fatalf("hit %+v", h)
				}
			}
		}
		if got := search(t, map[string]any{"query": "deploy payment", "limit": 5}); len(got) != 5 || got[0].Key != "notes/010" {
			t.Fatalf("hash-v1: %v", got)
		}
		if s := vx.Stats(); s.Graph-before.Graph != int64(len(queries)) || s.Fallback != before.Fallback || s.Exact-before.Exact != 1 {
			t.Fatalf("search paths %+v, before %+v", s, before)
		}
	})
	t.Run("NarrowFilterFallsBackToExact", func(t *testing.T) {
		before := vx.Stats()
		got := search(t, vq(queries[0], "type", "episodic"))
		want := exact(queries[0], 10, func(k string) bool { return k == "notes/000" || k == "notes/030" || k == "notes/060" })
		if fmt.Sprint(keys(got)) != fmt.Sprint(want) {
			t.Fatalf("got %v, want %v", keys(got), want)
		}
		if s := vx.Stats(); s.Fallback-before.Fallback != 1 || s.Graph != before.Graph {
			t.Fatalf("search paths %+v, before %+v", s, before)
		}
		// A broad filter (key prefix) stays in the graph.
		got = search(t, vq(queries[1], "keyPrefix", "notes/0"))
		want = exact(queries[1], 10, func(k string) bool { return k < "notes/1" })
		if fmt.Sprint(keys(got)) != fmt.Sprint(want) || vx.Stats().Graph-before.Graph != 1 {
			t.Fatalf("got %v, want %v (%+v)", keys(got), want, vx.Stats())
		}
	})
	t.Run("DeleteDisappears", func(t *testing.T) {
		ts.do(t, "DELETE", "/v1/memory/"+ids["notes/042"], a.Key, nil).must(t, 200)
		delete(vecs, "notes/042")
		got := search(t, vq(queries[3]))
		if slices.Contains(keys(got), "notes/042") {
			t.Fatalf("deleted memory found: %v", keys(got))
		}
		if want := exact(queries[3], 10, nil); fmt.Sprint(keys(got)) != fmt.Sprint(want) {
			t.Fatalf("got %v, want %v", keys(got), want)
		}
		if s := vx.Space(a.ID, "emb"); s.Tombstones != 1 || s.Vectors != n-1 {
			t.Fatalf("space %+v", s)
		}
	})
	t.Run("UpdateMovesVector", func(t *testing.T) {
		old := vecs["notes/005"]
		vecs["notes/005"] = randVec()
		res := ts.do(t, "PUT", "/v1/memory/"+ids["notes/005"], a.Key, map[string]any{"content": "moved note",
			"embedding": map[string]any{"space": "emb", "model": "m", "values": vecs["notes/005"]}}).must(t, 200)
		ids["notes/005"] = res.str("id")
		if got := search(t, vq(vecs["notes/005"], "limit", 1)); len(got) != 1 || got[0].Key != "notes/005" || got[0].Version != 2 || got[0].Score < 0.9999 {
			t.Fatalf("new vector: %v", got)
		}
		for _, h := range search(t, vq(old)) {
			if h.Key == "notes/005" && h.Score > 0.9999 {
				t.Fatalf("old vector still found: %+v", h)
			}
		}
	})
	t.Run("ExpiryDisappears", func(t *testing.T) {
		clk.Advance(2 * time.Hour)
		delete(vecs, "notes/007")
		got := search(t, vq(queries[2], "limit", 100))
		if slices.Contains(keys(got), "notes/007") || len(got) != len(vecs) {
			t.Fatalf("expired memory found or results short: %d %v", len(got), keys(got))
		}
	})

	// The graphs are built again from the store at start.
	answers := func() string {
		var s []any
		for _, q := range queries {
			s = append(s, search(t, vq(q)), search(t, vq(q, "minScore", 0.3)))
		}
		return fmt.Sprint(s, search(t, map[string]any{"query": "garden tomato", "limit": 20}))
	}
	before := answers()
	ts.stop()
	ts = startServer(t, cfg, func(m *Main) { m.Clock = clk })
	vx = ts.m.memory.Vectors
	vx.Settle()
	// 88 live vectors, and the expired one until the sweeper removes it.
	if s := vx.Space(a.ID, "emb"); s.GraphNodes != s.Vectors || s.Vectors < n-2 || s.Tombstones != 0 {
		t.Fatalf("after restart %+v", s)
	}
	g := vx.Stats().Graph
	if after := answers(); after != before {
		t.Fatalf("before restart %s\nafter %s", before, after)
	}
	if vx.Stats().Graph == g {
		t.Fatal("graph not used after restart")
	}
	// Exact only: the same answers.
	ts.stop()
	cfg.VectorHNSWThreshold = 0
	ts = startServer(t, cfg, func(m *Main) { m.Clock = clk })
	if s := ts.m.memory.Vectors.Space(a.ID, "emb"); s.GraphNodes != 0 || s.Vectors < n-2 {
		t.Fatalf("exact server %+v", s)
	}
	if exactAnswers := answers(); exactAnswers != before {
		t.Fatalf("graph %s\nexact %s", before, exactAnswers)
	}
}
