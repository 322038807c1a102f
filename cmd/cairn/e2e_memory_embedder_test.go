package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
)

// fakeEmbedder speaks the OpenAI embeddings API on 127.0.0.1. Its vectors
// count words of three concepts (vehicles, dogs, money), so synonyms that
// share no letters land together, which hash-v1 cannot do.
type fakeEmbedder struct {
	mu       sync.Mutex
	down     bool
	failNext int
	calls    int
	inputs   int
	batches  []int
	models   []string
}

var fakeConcepts = [][]string{{"car", "automobile", "vehicle", "truck"}, {"dog", "puppy", "canine", "hound"}, {"money", "cash", "payment", "paid"}}

func (f *fakeEmbedder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if r.Method != "POST" || r.URL.Path != "/v1/embeddings" {
		http.Error(w, "not found", 404)
		return
	}
	if f.down || f.failNext > 0 {
		f.failNext--
		http.Error(w, "unavailable", 503)
		return
	}
	var req struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Input) == 0 {
		http.Error(w, "bad request", 400)
		return
	}
	for _, text := range req.Input {
		if strings.Contains(text, "poison") { // a text this model refuses
			http.Error(w, "input too long", 400)
			return
		}
	}
	f.batches = append(f.batches, len(req.Input))
	f.models = append(f.models, req.Model)
	f.inputs += len(req.Input)
	var data []map[string]any
	for i, text := range req.Input {
		v := []float64{0, 0, 0, 0.01}
		for _, w := range strings.Fields(strings.ToLower(strings.Trim(text, "."))) {
			for c, words := range fakeConcepts {
				for _, cw := range words {
					if strings.Trim(w, ".,") == cw {
						v[c]++
					}
				}
			}
		}
		data = append(data, map[string]any{"object": "embedding", "index": i, "embedding": v})
	}
	// Answer in reverse order: the client must place vectors by index.
	for i, j := 0, len(data)-1; i < j; i, j = i+1, j-1 {
		data[i], data[j] = data[j], data[i]
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": req.Model})
}

func (f *fakeEmbedder) set(fn func(f *fakeEmbedder)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fn(f)
}

// TestMemoryServerEmbedder runs the "server" space against a local fake of
// the OpenAI embeddings API: writes never wait for or fail with the
// embedder, queued memories are embedded after a restart, in batches, with
// retries, text queries use the server space (hash-v1 while it cannot
// answer), updates re-embed, and POST /v1/memory/reembed queues again.
func TestMemoryServerEmbedder(t *testing.T) {
	fake := &fakeEmbedder{down: true}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	cfg := testConfig(t, t.TempDir())
	cfg.WriteLimitPerAgent, cfg.RateLimitPerKey = 100000, 100000
	cfg.EmbedderURL, cfg.EmbedderModel = srv.URL, "fake-1"
	ts := startServer(t, cfg)
	a := ts.register(t, "emb")
	ts.topUp(t, a, 1000)
	for _, m := range []map[string]any{
		{"key": "garage", "content": "I bought a new automobile."},
		{"key": "pets", "content": "The puppy chewed my shoes."},
		{"key": "market", "content": "Paid cash at the market."},
	} {
		ts.do(t, "POST", "/v1/memory", a.Key, m).must(t, 201) // the embedder is down
	}
	vsearch := func(t *testing.T, body map[string]any) (string, []string) {
		t.Helper()
		r := ts.do(t, "POST", "/v1/memory/vector-search", a.Key, body).must(t, 200)
		var keys []string
		for _, h := range r.JSON["results"].([]any) {
			keys = append(keys, h.(map[string]any)["key"].(string))
		}
		return r.str("space"), keys
	}
	if space, _ := vsearch(t, map[string]any{"query": "vehicle"}); space != "hash-v1" {
		t.Fatalf("with the embedder down a text query searched %s", space)
	}
	ts.do(t, "POST", "/v1/memory/vector-search", a.Key, map[string]any{"query": "vehicle", "space": "server"}).problem(t, 502, cairn.EUPSTREAM)

	ts.stop()
	fake.set(func(f *fakeEmbedder) { f.down, f.failNext = false, 1 }) // up again, failing one call: retried
	ts = startServer(t, cfg)
	waitFor := func(t *testing.T, what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); !ok(); time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
		}
	}
	waitFor(t, "the queue to drain after the restart", func() bool { return ts.m.memory.PendingEmbeds() == 0 })
	for q, want := range map[string]string{"vehicle": "garage", "canine": "pets", "money": "market"} {
		if space, keys := vsearch(t, map[string]any{"query": q, "limit": 1}); space != "server" || len(keys) != 1 || keys[0] != want {
			t.Fatalf("%q: %s %v, want %s", q, space, keys, want)
		}
	}
	fake.set(func(f *fakeEmbedder) {
		// One batch of the three queued memories, then the three queries.
		if f.inputs != 6 || len(f.batches) != 4 || f.batches[0] != 3 || f.models[0] != "fake-1" {
			t.Fatalf("embedder saw batches %v of models %v (%d inputs)", f.batches, f.models, f.inputs)
		}
	})
	if space, keys := vsearch(t, map[string]any{"query": "automobile", "space": "hash-v1", "limit": 1}); space != "hash-v1" || keys[0] != "garage" {
		t.Fatalf("hash-v1 text query: %s %v", space, keys)
	}

	t.Run("UpdateReembeds", func(t *testing.T) {
		id := ts.do(t, "GET", "/v1/memory?limit=100", a.Key, nil).must(t, 200)
		var marketID string
		for _, m := range id.JSON["memories"].([]any) {
			if m.(map[string]any)["key"] == "market" {
				marketID = m.(map[string]any)["id"].(string)
			}
		}
		ts.do(t, "PUT", "/v1/memory/"+marketID, a.Key, map[string]any{"content": "Walked the hound in the park."}).must(t, 200)
		waitFor(t, "the update to be embedded", func() bool {
			_, keys := vsearch(t, map[string]any{"query": "dog", "minScore": 0.5})
			return len(keys) == 2
		})
		if _, keys := vsearch(t, map[string]any{"query": "cash", "minScore": 0.5}); len(keys) != 0 {
			t.Fatalf("old version's vector still found: %v", keys)
		}
	})
	t.Run("Reembed", func(t *testing.T) {
		var before int
		fake.set(func(f *fakeEmbedder) { before = f.inputs })
		r := ts.do(t, "POST", "/v1/memory/reembed", a.Key, map[string]any{"space": "server"}).must(t, 200)
		if r.num("count") != 3 || r.str("space") != "server" {
			t.Fatalf("reembed: %s", r.Body)
		}
		waitFor(t, "the re-embedding", func() bool {
			var n int
			fake.set(func(f *fakeEmbedder) { n = f.inputs })
			return n == before+3 && ts.m.memory.PendingEmbeds() == 0
		})
		if r := ts.do(t, "POST", "/v1/memory/reembed", a.Key, map[string]any{"space": "hash-v1"}).must(t, 200); r.num("count") != 3 {
			t.Fatalf("reembed hash-v1: %s", r.Body)
		}
		ts.do(t, "POST", "/v1/memory/reembed", a.Key, map[string]any{"space": "client"}).problem(t, 400, cairn.EINVALID)
		ts.do(t, "GET", "/v1/memory/reembed", a.Key, nil).must(t, 405)
	})
	t.Run("RefusedTextIsDropped", func(t *testing.T) {
		fake.set(func(f *fakeEmbedder) { f.down = true }) // both queue up, then go in one batch
		ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "bad", "content": "poison pill"}).must(t, 201)
		ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "van", "content": "A vehicle for the move."}).must(t, 201)
		fake.set(func(f *fakeEmbedder) { f.down = false })
		waitFor(t, "the queue to drain past the refused text", func() bool { return ts.m.memory.PendingEmbeds() == 0 })
		if _, keys := vsearch(t, map[string]any{"query": "vehicle", "minScore": 0.9}); !slices.Contains(keys, "van") || slices.Contains(keys, "bad") {
			t.Fatalf("after a refused text: %v", keys)
		}
	})
	t.Run("WritesDoNotWaitForTheEmbedder", func(t *testing.T) {
		fake.set(func(f *fakeEmbedder) { f.down = true })
		ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "truck", "content": "The truck needs new tyres."}).must(t, 201)
		waitFor(t, "a failed embedder call", func() bool {
			var n int
			fake.set(func(f *fakeEmbedder) { n = f.calls })
			return n > 0 && ts.m.memory.PendingEmbeds() == 1
		})
		fake.set(func(f *fakeEmbedder) { f.down = false })
		waitFor(t, "the queued memory to be embedded", func() bool { return ts.m.memory.PendingEmbeds() == 0 })
		if _, keys := vsearch(t, map[string]any{"query": "vehicle", "limit": 2}); len(keys) != 2 {
			t.Fatalf("after recovery: %v", keys)
		}
	})
}
