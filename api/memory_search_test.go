package api_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestSearchSaysWhatItSearched: query matches key names and the answer
// says so (with a hint when it found nothing); keyQuery says it in its
// name; vector search never pads with memories of no similarity and says
// what its similarity means.
func TestSearchSaysWhatItSearched(t *testing.T) {
	ls, key := testerServer(t)
	ls.Do(t, "POST", "/v1/memory", key, `{"key":"notes/meeting","content":"met the whole team today"}`).Must(t, http.StatusCreated)
	ls.Do(t, "POST", "/v1/memory", key, `{"key":"notes/shopping","content":"apples and pears"}`).Must(t, http.StatusCreated)

	r := ls.Do(t, "POST", "/v1/memory/search", key, `{"query":"whole team"}`).Must(t, http.StatusOK)
	searched, _ := r.JSON["searched"].(map[string]any)
	if r.Num("count") != 0 || searched["keyNames"] != "whole team" || !strings.Contains(r.Str("hint"), "contentQuery") {
		t.Fatalf("key search for content words: %s", r.Body)
	}
	r = ls.Do(t, "POST", "/v1/memory/search", key, `{"contentQuery":"whole team"}`).Must(t, http.StatusOK)
	if searched, _ := r.JSON["searched"].(map[string]any); r.Num("count") != 1 || searched["content"] != "whole team" || r.JSON["hint"] != nil {
		t.Fatalf("content search: %s", r.Body)
	}
	if r = ls.Do(t, "POST", "/v1/memory/search", key, `{"keyQuery":"notes/"}`).Must(t, http.StatusOK); r.Num("count") != 2 {
		t.Fatalf("keyQuery: %s", r.Body)
	}
	ls.Do(t, "POST", "/v1/memory/search", key, `{"query":"a","keyQuery":"b"}`).Problem(t, http.StatusBadRequest, "invalid")

	r = ls.Do(t, "POST", "/v1/memory/vector-search", key, `{"query":"zebra giraffe"}`).Must(t, http.StatusOK)
	searched, _ = r.JSON["searched"].(map[string]any)
	if r.Num("count") != 0 || searched["kind"] != "lexical" {
		t.Fatalf("vector search with no similar memory: %s", r.Body)
	}
	if r = ls.Do(t, "POST", "/v1/memory/vector-search", key, `{"query":"zebra giraffe","minScore":-1}`).Must(t, http.StatusOK); r.Num("count") != 2 {
		t.Fatalf("minScore -1 ranks every memory: %s", r.Body)
	}
	if r = ls.Do(t, "POST", "/v1/memory/vector-search", key, `{"query":"team"}`).Must(t, http.StatusOK); r.Num("count") != 1 {
		t.Fatalf("vector search: %s", r.Body)
	}
	r = ls.Do(t, "POST", "/v1/memory/search", key, `{"contentQuery":"team","mode":"hybrid"}`).Must(t, http.StatusOK)
	if r.Num("count") != 1 {
		t.Fatalf("hybrid: %s", r.Body)
	}

	vs := ls.Do(t, "GET", "/v1/memory/vector-spaces", key, nil).Must(t, http.StatusOK)
	if vs.Str("defaultTextSpace") != "hash-v1" || len(vs.JSON["spaces"].([]any)) != 2 {
		t.Fatalf("vector spaces: %s", vs.Body)
	}
}
