package api_test

import (
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/api/apitest"
)

// TestMemoryReadPricingDocumented: the pricing note and the OpenAPI
// document say which memory reads are priced (memory.read) and which are
// free, and each says what the service charges.
func TestMemoryReadPricingDocumented(t *testing.T) {
	ts := apitest.NewServer(t)
	a := ts.Register(t, "")
	id := ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "k", "content": "x"}).Must(t, 201).Str("id")
	file := ts.MemUpload(t, a.Key, map[string]string{"type": "file", "key": "f"}, "f.txt", []byte("file")).Must(t, 201).Str("id")
	doc := ts.Do(t, "GET", "/v1/openapi.json", "", nil).Must(t, 200).JSON["paths"].(map[string]any)
	note := ts.Do(t, "GET", "/v1/billing/pricing", "", nil).Must(t, 200).Str("note")
	for _, c := range []struct{ path, docPath, inNote string }{
		{"/v1/memory", "/v1/memory", "GET /v1/memory (list"},
		{"/v1/memory/" + id, "/v1/memory/{id}", "GET /v1/memory/{id}"},
		{"/v1/memory/" + file + "/download", "/v1/memory/{id}/download", "GET /v1/memory/{id}/download"},
		{"/v1/memory/" + id + "/history", "/v1/memory/{id}/history", "GET /v1/memory/{id}/history"},
	} {
		before := ts.Balance(t, a.Key)
		ts.Do(t, "GET", c.path, a.Key, nil).Must(t, 200)
		charged := before - ts.Balance(t, a.Key)
		op := doc[c.docPath].(map[string]any)["get"].(map[string]any)
		documented := 0
		if cost, ok := op["x-cairn-cost"].(map[string]any); ok {
			documented = int(cost["credits"].(float64))
		}
		if charged != documented {
			t.Errorf("GET %s charged %d, the OpenAPI document says %d", c.docPath, charged, documented)
		}
		if !strings.Contains(note, c.inNote) {
			t.Errorf("the pricing note does not name %q", c.inNote)
		}
		i := strings.Index(note, c.inNote)
		free := strings.Index(note, "Free:")
		if i >= 0 && (charged == 0) != (i > free) {
			t.Errorf("the pricing note puts %q on the wrong side of \"Free:\" (charged %d)", c.inNote, charged)
		}
	}
}
