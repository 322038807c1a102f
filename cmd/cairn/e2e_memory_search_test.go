package main

import (
	"fmt"
	"testing"

	"github.com/cairn-dev/cairn"
)

func TestMemorySearch(t *testing.T) {
	onBothStores(t, func(t *testing.T, ts *testServer) {
		a := ts.newAgent(t, 1000)
		b := ts.register(t, "other")
		for _, m := range []map[string]any{
			{"key": "projects/apollo/notes", "content": "The launch window opens in July; fuel tests passed.", "metadata": map[string]any{"tags": []string{"space", "work"}}},
			{"key": "projects/gemini", "content": "Budget review for the orbital docking module.", "metadata": map[string]any{"tags": []string{"work"}}},
			{"key": "recipes/apollo-cake", "content": "Flour, sugar, eggs. Bake for forty minutes.", "metadata": map[string]any{"tags": []string{"home"}}},
			{"key": "archive/projects", "content": "old"},
			{"key": "vault/launch", "content": "bGF1bmNo", "encryptionProvider": "aes-256-gcm", "encryptionMeta": map[string]any{"iv": "a", "tag": "b"}},
		} {
			ts.do(t, "POST", "/v1/memory", a.Key, m).must(t, 201)
		}
		ts.do(t, "POST", "/v1/memory", b.Key, map[string]any{"key": "projects/apollo", "content": "launch launch launch"}).must(t, 201)
		search := func(t *testing.T, body map[string]any) []string {
			t.Helper()
			r := ts.do(t, "POST", "/v1/memory/search", a.Key, body).must(t, 200)
			var out []string
			for _, h := range r.JSON["results"].([]any) {
				out = append(out, h.(map[string]any)["key"].(string))
			}
			if int(r.num("count")) != len(out) {
				t.Fatalf("count: %s", r.Body)
			}
			return out
		}
		for _, tc := range []struct {
			name string
			body map[string]any
			want []string
		}{
			{"KeySubstring", map[string]any{"query": "apollo"}, []string{"projects/apollo/notes", "recipes/apollo-cake"}},
			{"KeyPrefixBeforeSubstring", map[string]any{"query": "projects"}, []string{"projects/apollo/notes", "projects/gemini", "archive/projects"}},
			{"KeyPrefix", map[string]any{"query": "PROJECTS/"}, []string{"projects/apollo/notes", "projects/gemini"}},
			{"FullText", map[string]any{"contentQuery": "launch fuel"}, []string{"projects/apollo/notes"}},
			{"FullTextSkipsEncrypted", map[string]any{"contentQuery": "launch"}, []string{"projects/apollo/notes"}},
			{"Tags", map[string]any{"tags": []string{"work"}, "query": "projects"}, []string{"projects/apollo/notes", "projects/gemini"}},
			{"AllCriteria", map[string]any{"query": "gemini", "contentQuery": "docking", "tags": []string{"work"}}, []string{"projects/gemini"}},
			{"NoMatch", map[string]any{"contentQuery": "zebra"}, nil},
		} {
			t.Run(tc.name, func(t *testing.T) {
				got := search(t, tc.body)
				if fmt.Sprint(got) != fmt.Sprint(tc.want) {
					t.Fatalf("got %v, want %v", got, tc.want)
				}
			})
		}
		t.Run("RanksAndReindexesOnPut", func(t *testing.T) {
			id := ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "notes/x", "content": "nothing here"}).must(t, 201).str("id")
			ts.do(t, "PUT", "/v1/memory/"+id, a.Key, map[string]any{"content": "launch launch launch pad"}).must(t, 200)
			if got := search(t, map[string]any{"contentQuery": "launch"}); len(got) != 2 || got[0] != "notes/x" {
				t.Fatalf("after put: %v", got)
			}
			if got := search(t, map[string]any{"contentQuery": "nothing"}); len(got) != 0 {
				t.Fatalf("old version still indexed: %v", got)
			}
		})
		t.Run("ErrInvalidRefunded", func(t *testing.T) {
			bal := ts.balance(t, a.Key)
			for _, body := range []any{map[string]any{}, map[string]any{"query": "a", "limit": 101}, `{"query": 1}`} {
				ts.do(t, "POST", "/v1/memory/search", a.Key, body).problem(t, 400, cairn.EINVALID)
			}
			search(t, map[string]any{"query": "x"})
			ts.wantBalance(t, a, bal-1)
		})
	})
}
