package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"testing"

	"github.com/cairn-dev/cairn"
)

// searchKeys runs a search over HTTP and returns the hits' keys, scores
// and matchedOn lists.
func searchKeys(t *testing.T, ts *testServer, key, path string, body map[string]any) ([]string, []float64, [][]any) {
	t.Helper()
	r := ts.do(t, "POST", path, key, body).must(t, 200)
	var keys []string
	var scores []float64
	var via [][]any
	for _, h := range r.JSON["results"].([]any) {
		h := h.(map[string]any)
		keys = append(keys, h["key"].(string))
		scores = append(scores, h["score"].(float64))
		via = append(via, h["matchedOn"].([]any))
	}
	return keys, scores, via
}

// TestMemoryHybridSearch checks mode "hybrid" of POST /v1/memory/search:
// the documented fusion formula, the importance boost, vector-only hits
// and the filters.
func TestMemoryHybridSearch(t *testing.T) {
	onBothStores(t, func(t *testing.T, ts *testServer) {
		a := ts.newAgent(t, 1000)
		hybrid := func(t *testing.T, key string, body map[string]any) ([]string, []float64, [][]any) {
			body["mode"] = "hybrid"
			return searchKeys(t, ts, key, "/v1/memory/search", body)
		}
		t.Run("Formula", func(t *testing.T) {
			b := ts.register(t, "solo")
			ts.do(t, "POST", "/v1/memory", b.Key, map[string]any{"key": "only", "content": "alpha beta gamma", "importance": 0.4}).must(t, 201)
			keys, scores, via := hybrid(t, b.Key, map[string]any{"contentQuery": "alpha beta"})
			// Rank 1 in both rankings: (1/61 + 1/61) × (1 + 0.5×0.4).
			if want := 2.0 / 61 * 1.2; len(keys) != 1 || math.Abs(scores[0]-want) > 1e-12 || fmt.Sprint(via[0]) != "[content vector]" {
				t.Fatalf("got %v %v %v, want score %v", keys, scores, via, want)
			}
		})
		for _, m := range []map[string]any{
			{"key": "a/low", "content": "Quarterly report on warehouse inventory levels.", "importance": 0.1, "metadata": map[string]any{"tags": []string{"work"}}},
			{"key": "b/high", "content": "Quarterly report on warehouse inventory levels.", "importance": 0.9, "metadata": map[string]any{"tags": []string{"work"}}},
			{"key": "c/deploy", "content": "We deploy the service every Tuesday.", "metadata": map[string]any{"tags": []string{"ops"}}},
			{"key": "d/other", "content": "Notes about the garden.", "expiresIn": "1h"},
		} {
			ts.do(t, "POST", "/v1/memory", a.Key, m).must(t, 201)
		}
		t.Run("ImportanceBoost", func(t *testing.T) {
			keys, scores, _ := hybrid(t, a.Key, map[string]any{"contentQuery": "warehouse inventory report"})
			if len(keys) < 2 || keys[0] != "b/high" || keys[1] != "a/low" || scores[0] <= scores[1] {
				t.Fatalf("got %v %v", keys, scores)
			}
		})
		t.Run("VectorOnlyHit", func(t *testing.T) {
			// "deploying" is no token of "We deploy the service": full-text
			// misses it, the character trigrams of hash-v1 do not.
			if keys, _, _ := searchKeys(t, ts, a.Key, "/v1/memory/search", map[string]any{"contentQuery": "deploying"}); len(keys) != 0 {
				t.Fatalf("full-text found %v", keys)
			}
			keys, _, via := hybrid(t, a.Key, map[string]any{"contentQuery": "deploying"})
			if len(keys) == 0 || keys[0] != "c/deploy" || fmt.Sprint(via[0]) != "[vector]" {
				t.Fatalf("got %v %v", keys, via)
			}
		})
		t.Run("Filters", func(t *testing.T) {
			keys, _, via := hybrid(t, a.Key, map[string]any{"contentQuery": "the service report", "tags": []string{"ops"}})
			if fmt.Sprint(keys) != "[c/deploy]" || via[0][len(via[0])-1] != "tags" {
				t.Fatalf("tags: %v %v", keys, via)
			}
			keys, _, _ = hybrid(t, a.Key, map[string]any{"contentQuery": "warehouse report", "query": "high"})
			if fmt.Sprint(keys) != "[b/high]" {
				t.Fatalf("key query: %v", keys)
			}
			keys, _, _ = hybrid(t, a.Key, map[string]any{"contentQuery": "warehouse report", "limit": 1})
			if fmt.Sprint(keys) != "[b/high]" {
				t.Fatalf("limit: %v", keys)
			}
		})
		t.Run("Invalid", func(t *testing.T) {
			bal := ts.balance(t, a.Key)
			ts.do(t, "POST", "/v1/memory/search", a.Key, map[string]any{"query": "a", "mode": "hybrid"}).problem(t, 400, cairn.EINVALID)
			ts.do(t, "POST", "/v1/memory/search", a.Key, map[string]any{"contentQuery": "a", "mode": "semantic"}).problem(t, 400, cairn.EINVALID)
			ts.wantBalance(t, a, bal)
		})
	})
}

// TestMemoryRelevance stores the labelled corpus of testdata/relevance and
// checks that each query's labelled best match ranks first, in vector
// search and in hybrid search.
func TestMemoryRelevance(t *testing.T) {
	raw, err := os.ReadFile("testdata/relevance/corpus.json")
	if err != nil {
		t.Fatal(err)
	}
	var corpus struct {
		Memories []map[string]any `json:"memories"`
		Queries  []struct{ Query, Best string }
	}
	if err := json.Unmarshal(raw, &corpus); err != nil {
		t.Fatal(err)
	}
	onBothStores(t, func(t *testing.T, ts *testServer) {
		a := ts.newAgent(t, 1000)
		for _, m := range corpus.Memories {
			ts.do(t, "POST", "/v1/memory", a.Key, m).must(t, 201)
		}
		for _, q := range corpus.Queries {
			for _, mode := range []struct{ path, field, mode string }{
				{"/v1/memory/vector-search", "query", ""}, {"/v1/memory/search", "contentQuery", "hybrid"}} {
				body := map[string]any{mode.field: q.Query, "limit": 3}
				if mode.mode != "" {
					body["mode"] = mode.mode
				}
				if keys, scores, _ := searchKeys(t, ts, a.Key, mode.path, body); len(keys) == 0 || keys[0] != q.Best {
					t.Errorf("%s %q: got %v %v, want %s first", mode.path, q.Query, keys, scores, q.Best)
				}
			}
		}
	})
}
