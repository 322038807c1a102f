package main

import (
	"testing"

	"github.com/cairn-dev/cairn"
)

// TestMemoryFreeOperations prices every memory operation at 0 and runs
// each endpoint to success and to failure: no 500, no charge, no refund
// taken from an earlier paid request.
func TestMemoryFreeOperations(t *testing.T) {
	ts, a := memServer(t, 1000)
	paid := ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "free/paid", "content": "x"}).must(t, 201).str("id")
	free := map[string]int{"memory.write": 0, "memory.read": 0, "memory.update": 0, "memory.delete": 0, "search": 0, "bulk.write": 0}
	ts.do(t, "PUT", "/v1/admin/pricing", admin, map[string]any{"operationCosts": free}).must(t, 200)
	bal := ts.balance(t, a.Key)
	id := ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "free/one", "content": "x"}).must(t, 201).str("id")
	file := ts.memUpload(t, a.Key, map[string]string{"type": "file", "key": "free/file"}, "f.bin", []byte("f")).must(t, 201).str("id")
	ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "free/one", "content": "x"}).problem(t, 409, cairn.ECONFLICT)
	ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "", "content": "x"}).problem(t, 400, cairn.EINVALID)
	ts.memUpload(t, a.Key, map[string]string{"type": "file", "key": "free/file"}, "f.bin", []byte("f")).problem(t, 409, cairn.ECONFLICT)
	ts.do(t, "GET", "/v1/memory/"+id, a.Key, nil).must(t, 200)
	ts.do(t, "GET", "/v1/memory/"+cairn.NewID(), a.Key, nil).problem(t, 404, cairn.ENOTFOUND)
	ts.do(t, "GET", "/v1/memory/"+file+"/download", a.Key, nil).must(t, 200)
	ts.do(t, "GET", "/v1/memory/"+cairn.NewID()+"/download", a.Key, nil).problem(t, 404, cairn.ENOTFOUND)
	ts.do(t, "GET", "/v1/memory?limit=0", a.Key, nil).problem(t, 400, cairn.EINVALID)
	ts.do(t, "GET", "/v1/memory", a.Key, nil).must(t, 200)
	ts.do(t, "PUT", "/v1/memory/"+id, a.Key, map[string]any{"content": "y"}, "If-Match", `"9"`).problem(t, 412, cairn.EPRECONDITION)
	ts.do(t, "PUT", "/v1/memory/"+id, a.Key, map[string]any{"content": "y"}).must(t, 200)
	ts.do(t, "PUT", "/v1/memory/"+id, a.Key, map[string]any{}).problem(t, 400, cairn.EINVALID)
	ts.do(t, "POST", "/v1/memory/search", a.Key, map[string]any{"query": "free"}).must(t, 200)
	ts.do(t, "POST", "/v1/memory/search", a.Key, map[string]any{}).problem(t, 400, cairn.EINVALID)
	r := ts.do(t, "POST", "/v1/memory/bulk-delete", a.Key, map[string]any{"ids": []string{cairn.NewID(), file, file}}).must(t, 200)
	if r.num("succeeded") != 1 || r.num("failed") != 2 {
		t.Fatalf("free bulk-delete: %s", r.Body)
	}
	ts.do(t, "DELETE", "/v1/memory/"+id, a.Key, nil).must(t, 200)
	ts.do(t, "DELETE", "/v1/memory/"+id, a.Key, nil).problem(t, 404, cairn.ENOTFOUND)
	ts.wantBalance(t, a, bal)
	ts.do(t, "GET", "/v1/memory/"+paid, a.Key, nil).must(t, 200)
	ts.wantBalance(t, a, bal)
}

// TestMemoryShortOfCredits: 402 with required and available, before any
// effect; a bulk request stores what it can pay for and reports 402 for
// the rest.
func TestMemoryShortOfCredits(t *testing.T) {
	ts, a := memServer(t, 12)
	id := ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "poor/one", "content": "x"}).must(t, 201).str("id")
	r := ts.do(t, "POST", "/v1/memory/bulk", a.Key, map[string]any{"memories": []any{
		map[string]any{"key": "poor/two", "content": "x"},
		map[string]any{"key": "poor/three", "content": "x"},
		map[string]any{"key": "poor/four", "content": "x"},
	}}).must(t, 200)
	res := r.JSON["results"].([]any)
	if r.num("succeeded") != 1 || res[1].(map[string]any)["status"] != 402.0 || res[2].(map[string]any)["status"] != 402.0 {
		t.Fatalf("bulk short of credits: %s", r.Body)
	}
	ts.wantBalance(t, a, 2)
	p := ts.do(t, "PUT", "/v1/memory/"+id, a.Key, map[string]any{"content": "y"}).problem(t, 402, cairn.EPAYMENT)
	if p.num("required") != 5 || p.num("available") != 2 {
		t.Fatalf("402: %s", p.Body)
	}
	ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "poor/five", "content": "x"}).problem(t, 402, cairn.EPAYMENT)
	ts.memUpload(t, a.Key, map[string]string{"type": "file", "key": "poor/file"}, "f.bin", []byte("f")).problem(t, 402, cairn.EPAYMENT)
	r = ts.do(t, "POST", "/v1/memory/bulk-delete", a.Key, map[string]any{"ids": []string{id}}).must(t, 200)
	if r.num("succeeded") != 1 {
		t.Fatalf("bulk-delete with 2 credits: %s", r.Body)
	}
	ts.wantBalance(t, a, 0)
	if r := ts.do(t, "GET", "/v1/memory?offset=0", a.Key, nil).problem(t, 402, cairn.EPAYMENT); r.num("available") != 0 {
		t.Fatalf("list at 0: %s", r.Body)
	}
	// Free endpoints still answer.
	ts.do(t, "GET", "/v1/memory/audit", a.Key, nil).must(t, 200)
	ts.do(t, "GET", "/v1/memory/expiring", a.Key, nil).must(t, 200)
	ts.do(t, "POST", "/v1/memory/ttl-alerts", a.Key, nil).must(t, 200)
	ts.wantBalance(t, a, 0)
}
