package api_test

import (
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
)

// TestMemoryFreeOperations prices every memory operation at 0 and runs
// each endpoint to success and to failure: no 500, no charge, no refund
// taken from an earlier paid request.
func TestMemoryFreeOperations(t *testing.T) {
	ts, a := memServer(t, 1000)
	paid := ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "free/paid", "content": "x"}).Must(t, 201).Str("id")
	free := map[string]int{"memory.write": 0, "memory.read": 0, "memory.update": 0, "memory.delete": 0, "search": 0, "bulk.write": 0}
	ts.Do(t, "PUT", "/v1/admin/pricing", apitest.AdminToken, map[string]any{"operationCosts": free}).Must(t, 200)
	bal := ts.Balance(t, a.Key)
	id := ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "free/one", "content": "x"}).Must(t, 201).Str("id")
	file := ts.MemUpload(t, a.Key, map[string]string{"type": "file", "key": "free/file"}, "f.bin", []byte("f")).Must(t, 201).Str("id")
	ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "free/one", "content": "x"}).Problem(t, 409, cairn.ECONFLICT)
	ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "", "content": "x"}).Problem(t, 400, cairn.EINVALID)
	ts.MemUpload(t, a.Key, map[string]string{"type": "file", "key": "free/file"}, "f.bin", []byte("f")).Problem(t, 409, cairn.ECONFLICT)
	ts.Do(t, "GET", "/v1/memory/"+id, a.Key, nil).Must(t, 200)
	ts.Do(t, "GET", "/v1/memory/"+cairn.NewID(), a.Key, nil).Problem(t, 404, cairn.ENOTFOUND)
	ts.Do(t, "GET", "/v1/memory/"+file+"/download", a.Key, nil).Must(t, 200)
	ts.Do(t, "GET", "/v1/memory/"+cairn.NewID()+"/download", a.Key, nil).Problem(t, 404, cairn.ENOTFOUND)
	ts.Do(t, "GET", "/v1/memory?limit=0", a.Key, nil).Problem(t, 400, cairn.EINVALID)
	ts.Do(t, "GET", "/v1/memory", a.Key, nil).Must(t, 200)
	ts.Do(t, "PUT", "/v1/memory/"+id, a.Key, map[string]any{"content": "y"}, "If-Match", `"9"`).Problem(t, 412, cairn.EPRECONDITION)
	ts.Do(t, "PUT", "/v1/memory/"+id, a.Key, map[string]any{"content": "y"}).Must(t, 200)
	ts.Do(t, "PUT", "/v1/memory/"+id, a.Key, map[string]any{}).Problem(t, 400, cairn.EINVALID)
	ts.Do(t, "POST", "/v1/memory/search", a.Key, map[string]any{"query": "free"}).Must(t, 200)
	ts.Do(t, "POST", "/v1/memory/search", a.Key, map[string]any{}).Problem(t, 400, cairn.EINVALID)
	r := ts.Do(t, "POST", "/v1/memory/bulk-delete", a.Key, map[string]any{"ids": []string{cairn.NewID(), file, file}}).Must(t, 200)
	if r.Num("succeeded") != 1 || r.Num("failed") != 2 {
		t.Fatalf("free bulk-delete: %s", r.Body)
	}
	ts.Do(t, "DELETE", "/v1/memory/"+id, a.Key, nil).Must(t, 200)
	ts.Do(t, "DELETE", "/v1/memory/"+id, a.Key, nil).Problem(t, 404, cairn.ENOTFOUND)
	ts.WantBalance(t, a, bal)
	ts.Do(t, "GET", "/v1/memory/"+paid, a.Key, nil).Must(t, 200)
	ts.WantBalance(t, a, bal)
}

// TestMemoryShortOfCredits: 402 with required and available, before any
// effect; a bulk request stores what it can pay for and reports 402 for
// the rest.
func TestMemoryShortOfCredits(t *testing.T) {
	ts, a := memServer(t, 12)
	id := ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "poor/one", "content": "x"}).Must(t, 201).Str("id")
	r := ts.Do(t, "POST", "/v1/memory/bulk", a.Key, map[string]any{"memories": []any{
		map[string]any{"key": "poor/two", "content": "x"},
		map[string]any{"key": "poor/three", "content": "x"},
		map[string]any{"key": "poor/four", "content": "x"},
	}}).Must(t, 200)
	res := r.JSON["results"].([]any)
	if r.Num("succeeded") != 1 || res[1].(map[string]any)["status"] != 402.0 || res[2].(map[string]any)["status"] != 402.0 {
		t.Fatalf("bulk short of credits: %s", r.Body)
	}
	ts.WantBalance(t, a, 2)
	p := ts.Do(t, "PUT", "/v1/memory/"+id, a.Key, map[string]any{"content": "y"}).Problem(t, 402, cairn.EPAYMENT)
	if p.Num("required") != 5 || p.Num("available") != 2 {
		t.Fatalf("402: %s", p.Body)
	}
	ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "poor/five", "content": "x"}).Problem(t, 402, cairn.EPAYMENT)
	ts.MemUpload(t, a.Key, map[string]string{"type": "file", "key": "poor/file"}, "f.bin", []byte("f")).Problem(t, 402, cairn.EPAYMENT)
	r = ts.Do(t, "POST", "/v1/memory/bulk-delete", a.Key, map[string]any{"ids": []string{id}}).Must(t, 200)
	if r.Num("succeeded") != 1 {
		t.Fatalf("bulk-delete with 2 credits: %s", r.Body)
	}
	ts.WantBalance(t, a, 0)
	if r := ts.Do(t, "GET", "/v1/memory?offset=0", a.Key, nil).Problem(t, 402, cairn.EPAYMENT); r.Num("available") != 0 {
		t.Fatalf("list at 0: %s", r.Body)
	}
	// Free endpoints still answer.
	ts.Do(t, "GET", "/v1/memory/audit", a.Key, nil).Must(t, 200)
	ts.Do(t, "GET", "/v1/memory/expiring", a.Key, nil).Must(t, 200)
	ts.Do(t, "POST", "/v1/memory/ttl-alerts", a.Key, nil).Must(t, 200)
	ts.WantBalance(t, a, 0)
}
