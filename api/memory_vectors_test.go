package api_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
)

// TestMemoryVectorSearch runs POST /v1/memory/vector-search over HTTP: the
// hash-v1 space from text, client vectors in their own space, the filters,
// minScore and limit, dimension and model mismatches, deletion, update and
// expiry, billing, agent isolation and the rebuild at restart.
func TestMemoryVectorSearch(t *testing.T) {
	ts, clk := clockedMemServer(t, time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC))
	a := ts.Register(t, "vec")
	ts.TopUp(t, a, 1000)
	b := ts.Register(t, "other")
	vec := func(xs ...float64) map[string]any {
		return map[string]any{"space": "client", "model": "m1", "values": xs}
	}
	// fill gives an agent the memories every search below runs over and
	// returns their ids (of version 1) by key. The subtests that change
	// them fill an agent of their own.
	ids := map[string]map[string]string{} // by agent key
	fill := func(t *testing.T, a apitest.Agent) map[string]string {
		t.Helper()
		ids[a.Key] = map[string]string{}
		for _, m := range []map[string]any{
			{"key": "ops/deploy", "content": "Deploy the payment service to the staging cluster on Friday.", "importance": 0.9,
				"metadata": map[string]any{"tags": []string{"ops", "work"}}, "embedding": vec(1, 0, 0)},
			{"key": "ops/rollback", "content": "Rollback procedure for a failed payment service deploy.", "importance": 0.3,
				"metadata": map[string]any{"tags": []string{"ops"}, "visibility": "share"}, "embedding": vec(0.9, 0.1, 0)},
			{"key": "home/garden", "type": "episodic", "content": "Water the tomatoes and prune the roses in the garden.",
				"embedding": vec(0, 0, 1)},
			{"key": "vault/secret", "content": "ZW5jcnlwdGVk", "encryptionProvider": "aes-256-gcm",
				"encryptionMeta": map[string]any{"iv": "a"}, "embedding": vec(0.2, 0.9, 0)},
			{"key": "vault/no-vector", "content": "ZGVwbG95", "encryptionProvider": "aes-256-gcm", "encryptionMeta": map[string]any{"iv": "b"}},
			{"key": "tmp/deploy-note", "content": "deploy payment service staging", "expiresIn": "1h"},
		} {
			ids[a.Key][m["key"].(string)] = ts.Do(t, "POST", "/v1/memory", a.Key, m).Must(t, 201).Str("id")
		}
		return ids[a.Key]
	}
	fill(t, a)
	ts.Do(t, "POST", "/v1/memory", b.Key, map[string]any{"key": "ops/deploy", "content": "Deploy the payment service to the staging cluster."}).Must(t, 201)

	search := func(t *testing.T, key string, body map[string]any) ([]string, []float64) {
		t.Helper()
		r := ts.Do(t, "POST", "/v1/memory/vector-search", key, body).Must(t, 200)
		var keys []string
		var scores []float64
		for _, h := range r.JSON["results"].([]any) {
			h := h.(map[string]any)
			keys = append(keys, h["key"].(string))
			scores = append(scores, h["score"].(float64))
			if id, ok := ids[key][h["key"].(string)]; ok && h["id"] != id && h["version"].(float64) == 1 {
				t.Fatalf("hit id %v for %v", h["id"], h["key"])
			}
		}
		if int(r.Num("count")) != len(keys) {
			t.Fatalf("count: %s", r.Body)
		}
		return keys, scores
	}
	text := "deploy payment service staging"
	for _, tc := range []struct {
		name string
		body map[string]any
		want []string
	}{
		{"TextHashSpace", map[string]any{"query": text, "limit": 3}, []string{"tmp/deploy-note", "ops/deploy", "ops/rollback"}},
		{"Limit", map[string]any{"query": text, "limit": 1}, []string{"tmp/deploy-note"}},
		{"EncryptedOnlyByClientVector", map[string]any{"query": "ZGVwbG95 ZW5jcnlwdGVk encrypted", "minScore": 0.1}, nil},
		{"ClientSpace", map[string]any{"vector": map[string]any{"space": "client", "values": []float64{1, 0, 0}}},
			[]string{"ops/deploy", "ops/rollback", "vault/secret", "home/garden"}},
		{"MinScore", map[string]any{"vector": map[string]any{"space": "client", "values": []float64{1, 0, 0}}, "minScore": 0.5},
			[]string{"ops/deploy", "ops/rollback"}},
		{"Type", map[string]any{"query": text, "type": "episodic"}, []string{"home/garden"}},
		{"Tags", map[string]any{"query": text, "tags": []string{"ops", "work"}}, []string{"ops/deploy"}},
		{"Visibility", map[string]any{"query": text, "visibility": "share"}, []string{"ops/rollback"}},
		{"MinImportance", map[string]any{"query": text, "minImportance": 0.8}, []string{"ops/deploy"}},
		{"KeyPrefix", map[string]any{"query": text, "keyPrefix": "ops/r"}, []string{"ops/rollback"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, scores := search(t, a.Key, tc.body)
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Fatalf("got %v %v, want %v", got, scores, tc.want)
			}
			for i := 1; i < len(scores); i++ {
				if scores[i] > scores[i-1] {
					t.Fatalf("not best first: %v", scores)
				}
			}
		})
	}
	t.Run("ExactMatchScoresOne", func(t *testing.T) {
		got, scores := search(t, a.Key, map[string]any{"query": "Deploy the payment service to the staging cluster on Friday.", "limit": 1})
		if len(got) != 1 || got[0] != "ops/deploy" || scores[0] < 0.9999 {
			t.Fatalf("got %v %v", got, scores)
		}
	})
	t.Run("Isolation", func(t *testing.T) {
		got, _ := search(t, b.Key, map[string]any{"query": text})
		if len(got) != 1 || got[0] != "ops/deploy" {
			t.Fatalf("other apitest.Agent sees %v", got)
		}
		ts.Do(t, "POST", "/v1/memory/vector-search", b.Key, map[string]any{"vector": map[string]any{"space": "client", "values": []float64{1, 0, 0}}}).
			Problem(t, 422, cairn.EUNPROCESSABLE)
	})
	t.Run("Mismatch", func(t *testing.T) {
		bal := ts.Balance(t, a.Key)
		ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "bad/dims", "content": "x", "embedding": vec(1, 0)}).Problem(t, 422, cairn.EUNPROCESSABLE)
		ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "bad/model", "content": "x",
			"embedding": map[string]any{"space": "client", "model": "m2", "values": []float64{1, 0, 0}}}).Problem(t, 422, cairn.EUNPROCESSABLE)
		ts.Do(t, "PUT", "/v1/memory/"+ids[a.Key]["home/garden"], a.Key, map[string]any{"content": "x", "embedding": vec(1, 0, 0, 0)}).Problem(t, 422, cairn.EUNPROCESSABLE)
		ts.Do(t, "POST", "/v1/memory/vector-search", a.Key, map[string]any{"vector": map[string]any{"space": "client", "values": []float64{1, 0}}}).
			Problem(t, 422, cairn.EUNPROCESSABLE)
		ts.Do(t, "POST", "/v1/memory/vector-search", a.Key, map[string]any{"vector": map[string]any{"space": "nope", "values": []float64{1}}}).
			Problem(t, 422, cairn.EUNPROCESSABLE)
		for _, body := range []any{map[string]any{}, map[string]any{"query": "a", "limit": 101}, `{"query": 1}`,
			map[string]any{"query": "a", "vector": map[string]any{"space": "client", "values": []float64{1, 0, 0}}},
			map[string]any{"query": "a", "minScore": 2}, map[string]any{"query": "a", "visibility": "public"},
			map[string]any{"query": "..."}, map[string]any{"vector": map[string]any{"space": "client", "values": []float64{0, 0, 0}}}} {
			ts.Do(t, "POST", "/v1/memory/vector-search", a.Key, body).Problem(t, 400, cairn.EINVALID)
		}
		for _, e := range []map[string]any{{"space": "hash-v1", "values": []float64{1}}, {"space": "Bad Space", "values": []float64{1}},
			{"space": "client", "model": "m1", "values": []float64{}}} {
			ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "bad/e", "content": "x", "embedding": e}).Problem(t, 400, cairn.EINVALID)
		}
		ts.WantBalance(t, a, bal) // every rejected write and search refunded
		search(t, a.Key, map[string]any{"query": "x"})
		ts.WantBalance(t, a, bal-1)
	})
	t.Run("UpdateReembeds", func(t *testing.T) {
		a := ts.NewAgent(t, 1000)
		mine := fill(t, a)
		r := ts.Do(t, "PUT", "/v1/memory/"+mine["home/garden"], a.Key, map[string]any{"content": "Deploy the payment service staging cluster"}).Must(t, 200)
		mine["home/garden"] = r.Str("id")
		got, _ := search(t, a.Key, map[string]any{"query": text, "type": "episodic"})
		if len(got) != 1 || got[0] != "home/garden" {
			t.Fatalf("after put: %v", got)
		}
		if got, _ := search(t, a.Key, map[string]any{"query": "tomatoes roses garden", "minScore": 0.2}); len(got) != 0 {
			t.Fatalf("old version still indexed: %v", got)
		}
		// The new version sent no vector: the old one left the client space.
		got, _ = search(t, a.Key, map[string]any{"vector": map[string]any{"space": "client", "values": []float64{0, 0, 1}}})
		if len(got) != 3 || slices.Contains(got, "home/garden") {
			t.Fatalf("old client vector still indexed: %v", got)
		}
	})
	t.Run("DeleteDisappears", func(t *testing.T) {
		a := ts.NewAgent(t, 1000)
		ts.Do(t, "DELETE", "/v1/memory/"+fill(t, a)["ops/rollback"], a.Key, nil).Must(t, 200)
		for _, body := range []map[string]any{{"query": text}, {"vector": map[string]any{"space": "client", "values": []float64{1, 0, 0}}}} {
			if got, _ := search(t, a.Key, body); len(got) == 0 || slices.Contains(got, "ops/rollback") {
				t.Fatalf("deleted memory found: %v", got)
			}
		}
	})
	t.Run("ExpiryDisappears", func(t *testing.T) {
		a := ts.NewAgent(t, 1000)
		fill(t, a)
		clk.Advance(2 * time.Hour)
		if got, _ := search(t, a.Key, map[string]any{"query": text}); len(got) == 0 || slices.Contains(got, "tmp/deploy-note") {
			t.Fatalf("expired memory found: %v", got)
		}
	})
	t.Run("FixedPathMethod", func(t *testing.T) {
		ts.Do(t, "GET", "/v1/memory/vector-search", a.Key, nil).Must(t, 405)
	})
	// The index is rebuilt from the store at start: every agent above
	// (those whose memories changed too) finds what it found before.
	found := func() map[string]string {
		out := map[string]string{}
		for key := range ids {
			keys, scores := search(t, key, map[string]any{"query": text, "limit": 100})
			ckeys, cscores := search(t, key, map[string]any{"vector": map[string]any{"space": "client", "values": []float64{0.3, 0.3, 0.3}}})
			out[key] = fmt.Sprint(keys, scores, " / ", ckeys, cscores)
		}
		return out
	}
	before := found()
	ts = ts.Restart(t)
	after := found()
	if fmt.Sprint(before) != fmt.Sprint(after) {
		t.Fatalf("before restart %v, after %v", before, after)
	}
	if cafter, _ := search(t, a.Key, map[string]any{"vector": map[string]any{"space": "client", "values": []float64{0.3, 0.3, 0.3}}}); len(cafter) != 4 {
		t.Fatalf("client vectors after restart: %v", cafter)
	}
	// The space's dimension and model survive the restart too.
	ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "bad/dims2", "content": "x", "embedding": vec(1, 0)}).Problem(t, 422, cairn.EUNPROCESSABLE)
}
