package api_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/api/apitest"
)

// ledgerLen is the number of the caller's ledger entries (at most 100).
func ledgerLen(t *testing.T, ls *apitest.Server, key string) int {
	t.Helper()
	r := ls.Do(t, http.MethodGet, "/v1/billing/transactions?limit=100", key, nil).Must(t, http.StatusOK)
	txs, _ := r.JSON["transactions"].([]any)
	return len(txs)
}

func unknownList(r *apitest.Response) []string {
	var out []string
	for _, f := range r.JSON["unknownFields"].([]any) {
		out = append(out, f.(string))
	}
	return out
}

// TestUnknownFieldsRefused: a member the request does not take is a 400
// naming it and where it belongs, before any charge, and nothing is
// stored.
func TestUnknownFieldsRefused(t *testing.T) {
	ls, key := testerServer(t)
	entries := ledgerLen(t, ls, key)
	for _, tc := range []struct {
		name, path, method, body string
		fields                   []string
		hints                    []string
	}{
		{"tags", "/v1/memory", "POST", `{"key":"a/b","content":"x","tags":["t"]}`, []string{"tags"}, []string{"metadata.tags"}},
		{"typo and ttl", "/v1/memory", "POST", `{"key":"a/b","contnt":"x","ttl":"7d","expires_in":"1d"}`, []string{"contnt", "ttl", "expires_in"}, []string{"did you mean content?", "expiresIn"}},
		{"nested", "/v1/memory", "POST", `{"key":"a/b","content":"x","metadata":{"tags":[],"label":"x"}}`, []string{"metadata.label"}, nil},
		{"bulk item", "/v1/memory/bulk", "POST", `{"memories":[{"key":"a/1","content":"x"},{"key":"a/2","content":"y","tags":["t"]}]}`, []string{"memories[1].tags"}, []string{"memories[1].metadata.tags"}},
		{"search", "/v1/memory/search", "POST", `{"q":"team"}`, []string{"q"}, nil},
		{"vector search", "/v1/memory/vector-search", "POST", `{"query":"team","k":3}`, []string{"k"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := ls.Do(t, tc.method, tc.path, key, tc.body).Problem(t, http.StatusBadRequest, "invalid")
			if got := unknownList(r); !slices.Equal(got, tc.fields) {
				t.Errorf("unknownFields %v, want %v", got, tc.fields)
			}
			if r.Str("field") != tc.fields[0] {
				t.Errorf("field %q, want %q", r.Str("field"), tc.fields[0])
			}
			for _, h := range tc.hints {
				if !strings.Contains(r.Str("detail"), h) {
					t.Errorf("detail %q does not say %q", r.Str("detail"), h)
				}
			}
		})
	}
	if got := ledgerLen(t, ls, key); got != entries {
		t.Errorf("ledger has %d entries after refused requests, want %d (nothing charged)", got, entries)
	}
	list := ls.Do(t, http.MethodGet, "/v1/memory", key, nil).Must(t, http.StatusOK)
	if n := len(list.JSON["memories"].([]any)); n != 0 {
		t.Errorf("%d memories stored by refused requests", n)
	}
}

// TestTypeErrorsSpeakJSON: a wrongly typed member is named with its JSON
// type, never a Go type.
func TestTypeErrorsSpeakJSON(t *testing.T) {
	ls, key := testerServer(t)
	r := ls.Do(t, "POST", "/v1/memory", key, `{"key":"a/b","content":"x","importance":"high"}`).Problem(t, http.StatusBadRequest, "invalid")
	if r.Str("field") != "importance" || r.Str("detail") != `Field "importance" must be a number, not a string.` {
		t.Errorf("field %q detail %q", r.Str("field"), r.Str("detail"))
	}
	r = ls.Do(t, "POST", "/v1/memory", key, `{"key":"a/b","content":"x","metadata":{"tags":"t"}}`).Problem(t, http.StatusBadRequest, "invalid")
	if r.Str("field") != "metadata.tags" || !strings.Contains(r.Str("detail"), "must be an array, not a string") {
		t.Errorf("field %q detail %q", r.Str("field"), r.Str("detail"))
	}
}

// TestPutNamesTheFieldThatCannotChange: a PUT changing type names type,
// not key.
func TestPutNamesTheFieldThatCannotChange(t *testing.T) {
	ls, key := testerServer(t)
	id := ls.Do(t, "POST", "/v1/memory", key, `{"key":"a/b","content":"x"}`).Must(t, http.StatusCreated).Str("id")
	r := ls.Do(t, "PUT", "/v1/memory/"+id, key, `{"content":"new","type":"episodic"}`).Problem(t, http.StatusBadRequest, "invalid")
	if r.Str("field") != "type" {
		t.Errorf("field %q, want type: %s", r.Str("field"), r.Body)
	}
	r = ls.Do(t, "PUT", "/v1/memory/"+id, key, `{"content":"new","key":"a/c"}`).Problem(t, http.StatusBadRequest, "invalid")
	if r.Str("field") != "key" {
		t.Errorf("field %q, want key: %s", r.Str("field"), r.Body)
	}
	ls.Do(t, "PUT", "/v1/memory/"+id, key, `{"content":"new","key":"a/b","type":"semantic"}`).Must(t, http.StatusOK)
}

// TestSkillMarksRequiredFields: the skill says key and content are
// required on createMemory.
func TestSkillMarksRequiredFields(t *testing.T) {
	ls := apitest.NewServer(t)
	r := ls.Do(t, "GET", "/v1/skill?full=true", "", nil).Must(t, http.StatusOK)
	var fields []any
	for _, e := range r.JSON["endpoints"].([]any) {
		if e := e.(map[string]any); e["operationId"] == "createMemory" {
			fields = e["requestBody"].(map[string]any)["fields"].([]any)
		}
	}
	required := map[string]bool{}
	for _, f := range fields {
		f := f.(map[string]any)
		required[f["name"].(string)] = f["required"].(bool)
	}
	if !required["key"] || !required["content"] || required["type"] {
		t.Errorf("createMemory fields required: %v", required)
	}
}

// TestTopLevelVisibility: visibility at the top level, as records show
// it, is metadata.visibility; given both, they must agree.
func TestTopLevelVisibility(t *testing.T) {
	ls, key := testerServer(t)
	r := ls.Do(t, "POST", "/v1/memory", key, `{"key":"a/b","content":"x","visibility":"share"}`).Must(t, http.StatusCreated)
	if r.Str("visibility") != "share" {
		t.Fatalf("top-level visibility share stored %q", r.Str("visibility"))
	}
	ls.Do(t, "POST", "/v1/memory", key, `{"key":"a/c","content":"x","visibility":"share","metadata":{"visibility":"private"}}`).Problem(t, http.StatusBadRequest, "invalid")
	// A record read back with new content is a valid PUT.
	rec := ls.Do(t, "GET", "/v1/memory/"+r.Str("id"), key, nil).Must(t, http.StatusOK).JSON
	rec["content"] = "y"
	ls.Do(t, "PUT", "/v1/memory/"+r.Str("id"), key, rec).Must(t, http.StatusOK)
	// but not a create.
	rec["key"] = "a/d"
	ls.Do(t, "POST", "/v1/memory", key, rec).Problem(t, http.StatusBadRequest, "invalid")
}

// TestSkillExplainsDefaultTTLs: the three default times to live are told
// together where an agent reads first.
func TestSkillExplainsDefaultTTLs(t *testing.T) {
	ls := apitest.NewServer(t)
	d := ls.Do(t, "GET", "/v1/skill?full=true", "", nil).Must(t, http.StatusOK).Str("description")
	q := ls.Do(t, "GET", "/v1/skill", "", nil).Must(t, http.StatusOK).Str("markdown")
	for _, s := range []string{"JSON memory never expires", "30 days", "90 days"} {
		if !strings.Contains(d, s) || !strings.Contains(q, s) {
			t.Errorf("the skill (full or short) does not say %q", s)
		}
	}
}
