package main

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-dev/cairn"
)

// TestMemoryIsolationEveryEndpoint: another agent's version id is 404 on
// every endpoint (never 412, 400 or a bulk success), changes nothing, and
// leaves no trace in the owner's audit log.
func TestMemoryIsolationEveryEndpoint(t *testing.T) {
	ts, a := memServer(t, 1000)
	b := ts.register(t, "intruder")
	ts.topUp(t, b, 1000)
	id := ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "secret/plan", "content": "a's", "expiresIn": "1d"}).must(t, 201).str("id")
	file := ts.memUpload(t, a.Key, map[string]string{"type": "file", "key": "secret/file"}, "f.txt", []byte("a's file")).must(t, 201).str("id")
	auditBefore := len(ts.do(t, "GET", "/v1/memory/audit", a.Key, nil).must(t, 200).JSON["entries"].([]any))
	balA, balB := ts.balance(t, a.Key), 1000
	for _, tc := range []struct {
		method, path string
		body         any
		hdr          []string
		cost         int
	}{
		{"GET", "/v1/memory/" + file + "/download", nil, nil, 1},
		{"GET", "/v1/memory/" + id + "/history", nil, nil, 0},
		{"PUT", "/v1/memory/" + id, map[string]any{"content": "b's"}, []string{"If-Match", `"7"`}, 5},
		{"PATCH", "/v1/memory/" + id + "/importance", map[string]any{"importance": 0}, nil, 0},
		{"PATCH", "/v1/memory/" + file + "/pin", nil, nil, 0},
	} {
		ts.do(t, tc.method, tc.path, b.Key, tc.body, tc.hdr...).problem(t, 404, cairn.ENOTFOUND)
		balB -= tc.cost
	}
	r := ts.do(t, "POST", "/v1/memory/ttl-alerts", b.Key, map[string]any{"renewIds": []string{id, file}, "renewExpiresIn": "365d"}).must(t, 200)
	if r.num("renewedCount") != 0 {
		t.Fatalf("b renewed a's memories: %s", r.Body)
	}
	r = ts.do(t, "POST", "/v1/memory/bulk-delete", b.Key, map[string]any{"ids": []string{id, file}}).must(t, 200)
	for _, it := range r.JSON["results"].([]any) {
		if it.(map[string]any)["status"] != 404.0 {
			t.Fatalf("bulk-delete of a's ids by b: %s", r.Body)
		}
	}
	balB -= 2 * 2 // memory.delete for each id: a 404 keeps its charge (spec 7)
	for _, q := range []string{"?history=true", "?offset=0"} {
		if r := ts.do(t, "GET", "/v1/memory"+q, b.Key, nil).must(t, 200); len(r.JSON["memories"].([]any)) != 0 {
			t.Fatalf("b lists a's memories: %s", r.Body)
		}
		balB--
	}
	if r := ts.do(t, "POST", "/v1/memory/search", b.Key, map[string]any{"query": "secret", "contentQuery": "a"}).must(t, 200); r.num("count") != 0 {
		t.Fatalf("b finds a's memories: %s", r.Body)
	}
	balB--
	ts.wantBalance(t, b, balB)
	ts.wantBalance(t, a, balA)
	if g := ts.do(t, "GET", "/v1/memory/"+id, a.Key, nil).must(t, 200); g.num("version") != 1 || g.num("importance") != 0.5 || g.str("content") != "a's" {
		t.Fatalf("a's memory changed: %s", g.Body)
	}
	if n := len(ts.do(t, "GET", "/v1/memory/audit", a.Key, nil).must(t, 200).JSON["entries"].([]any)); n != auditBefore+1 {
		t.Fatalf("a's audit has %d entries, want %d (b's attempts leaked in)", n, auditBefore+1)
	}
}

// TestMemoryConcurrentPuts: PUTs racing on one memory with the same
// If-Match: exactly one wins, the others are 412 (charged); without
// If-Match every PUT gets its own version number.
func TestMemoryConcurrentPuts(t *testing.T) {
	ts, a := memServer(t, 10000)
	id := ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "race", "content": "v1"}).must(t, 201).str("id")
	const n = 8
	put := func(ifMatch string) []*response {
		out := make([]*response, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var hdr []string
				if ifMatch != "" {
					hdr = []string{"If-Match", ifMatch}
				}
				r, err := ts.try(t, "PUT", "/v1/memory/"+id, a.Key, map[string]any{"content": fmt.Sprint("writer ", i)}, hdr...)
				if err != nil {
					t.Error(err)
					return
				}
				out[i] = r
			}()
		}
		wg.Wait()
		if slices.Contains(out, nil) {
			t.FailNow()
		}
		return out
	}
	bal := ts.balance(t, a.Key)
	won := 0
	for _, r := range put(`"1"`) {
		switch r.Status {
		case 200:
			won++
			if r.num("version") != 2 {
				t.Fatalf("winner: %s", r.Body)
			}
		case 412:
			r.problem(t, 412, cairn.EPRECONDITION)
		default:
			t.Fatalf("racing PUT: %d %s", r.Status, r.Body)
		}
	}
	if won != 1 {
		t.Fatalf("%d conditional PUTs won, want 1", won)
	}
	ts.wantBalance(t, a, bal-5*n)
	seen := map[float64]bool{}
	for _, r := range put("") {
		r.must(t, 200)
		seen[r.num("version")] = true
	}
	if len(seen) != n {
		t.Fatalf("versions %v, want %d distinct", seen, n)
	}
	h := ts.do(t, "GET", "/v1/memory/"+id+"/history", a.Key, nil).must(t, 200)
	if h.num("totalVersions") != 2+n {
		t.Fatalf("history: %s", h.Body)
	}
}

// TestMemoryMalformedBodies sends broken JSON, wrong types and the wrong
// Content-Type to every memory endpoint that takes a body: always a 4xx
// problem, never a 500, and every charge given back.
func TestMemoryMalformedBodies(t *testing.T) {
	ts, a := memServer(t, 1000)
	id := ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "body/probe", "content": "x"}).must(t, 201).str("id")
	bal := ts.balance(t, a.Key)
	paths := []struct{ method, path string }{
		{"POST", "/v1/memory"},
		{"PUT", "/v1/memory/" + id},
		{"POST", "/v1/memory/search"},
		{"POST", "/v1/memory/bulk"},
		{"POST", "/v1/memory/bulk-delete"},
		{"POST", "/v1/memory/ttl-alerts"},
		{"PATCH", "/v1/memory/" + id + "/importance"},
	}
	bodies := []string{`{`, `[]`, `"text"`, `42`, `{"a":1}{"b":2}`, `{"a":1} x`, "\xff\xfe", `{"key":"k","content":"x",}`}
	for _, p := range paths {
		for _, body := range bodies {
			ts.do(t, p.method, p.path, a.Key, body).problem(t, 400, cairn.EINVALID)
		}
		ts.do(t, p.method, p.path, a.Key, `{}`, "Content-Type", "text/plain").problem(t, 415, cairn.EUNSUPPORTEDMEDIA)
		ts.do(t, p.method, p.path, a.Key, `{}`, "Content-Type", "application/json; charset").problem(t, 415, cairn.EUNSUPPORTEDMEDIA)
	}
	// Wrong JSON types in every field.
	for _, tc := range []struct {
		method, path, body string
	}{
		{"POST", "/v1/memory", `{"key":["k"],"content":"x"}`},
		{"POST", "/v1/memory", `{"key":"k","content":"x","importance":"high"}`},
		{"POST", "/v1/memory", `{"key":"k","content":"x","importance":1e400}`},
		{"POST", "/v1/memory", `{"key":"k","content":"x","expiresIn":7}`},
		{"POST", "/v1/memory", `{"key":"k","content":"x","metadata":"private"}`},
		{"POST", "/v1/memory", `{"key":"k","content":"x","metadata":{"tags":"a"}}`},
		{"POST", "/v1/memory", `{"key":"k","content":"x","metadata":{"tags":[1]}}`},
		{"POST", "/v1/memory", `{"key":"k","content":"x","metadata":{"tags":[null]}}`},
		{"POST", "/v1/memory", `{"key":"k","content":"x","metadata":{"tags":[""]}}`},
		{"POST", "/v1/memory", `{"key":"k","content":"x","encryptionMeta":[1]}`},
		{"POST", "/v1/memory", `{"key":"k","content":"x","encryptionProvider":{}}`},
		{"POST", "/v1/memory", `{"key":"k","content":"x","mimeType":5}`},
		{"POST", "/v1/memory", `{"key":"k","content":null}`},
		{"POST", "/v1/memory", `{"key":null,"content":"x"}`},
		{"POST", "/v1/memory", `null`},
		{"POST", "/v1/memory", `{"key":"k\u0000x","content":"x"}`},
		{"POST", "/v1/memory", `{"key":"k\u202ex","content":"x"}`},
		{"POST", "/v1/memory", `{"key":"` + strings.Repeat("a", 513) + `","content":"x"}`},
		{"POST", "/v1/memory", `{"key":"k","content":"x","type":"` + strings.Repeat("a", 33) + `"}`},
		{"POST", "/v1/memory", `{"key":"k","content":"x","blobFilename":"../../etc"}`},
		{"POST", "/v1/memory", `{"key":"k","content":"x","blobExtension":"/x"}`},
		{"POST", "/v1/memory", `{"key":"k","content":"x","contentEncoding":"gzip"}`},
		{"PUT", "/v1/memory/" + id, `{"content":null}`},
		{"PUT", "/v1/memory/" + id, `{"content":"x","type":"file"}`},
		{"PUT", "/v1/memory/" + id, `{"content":"x","importance":-0.0001}`},
		{"PUT", "/v1/memory/" + id, `{"content":"x","expiresIn":""}`},
		{"PUT", "/v1/memory/" + id, `{"content":"x","expiresIn":"0h"}`},
		{"PUT", "/v1/memory/" + id, `{"content":"x","expiresIn":"-1h"}`},
		{"POST", "/v1/memory/search", `{"query":"` + strings.Repeat("q", 513) + `"}`},
		{"POST", "/v1/memory/search", `{"query":"a","limit":-1}`},
		{"POST", "/v1/memory/search", `{"query":"a","limit":1.5}`},
		{"POST", "/v1/memory/search", `{"tags":"work"}`},
		{"POST", "/v1/memory/search", `{"query":null,"contentQuery":null,"tags":null}`},
		{"POST", "/v1/memory/bulk", `{"memories":{}}`},
		{"POST", "/v1/memory/bulk", `{"memories":null}`},
		{"POST", "/v1/memory/bulk", `{}`},
		{"POST", "/v1/memory/bulk-delete", `{"ids":"x"}`},
		{"POST", "/v1/memory/bulk-delete", `{"ids":[1]}`},
		{"POST", "/v1/memory/bulk-delete", `{}`},
		{"POST", "/v1/memory/ttl-alerts", `{"renewIds":"x","renewExpiresIn":"1d"}`},
		{"POST", "/v1/memory/ttl-alerts", `{"within":24}`},
		{"POST", "/v1/memory/ttl-alerts", `{"renewIds":["` + id + `"],"renewExpiresIn":"0d"}`},
		{"PATCH", "/v1/memory/" + id + "/importance", `{"importance":"0.5"}`},
		{"PATCH", "/v1/memory/" + id + "/importance", `{"importance":null}`},
		{"PATCH", "/v1/memory/" + id + "/importance", `null`},
	} {
		ts.do(t, tc.method, tc.path, a.Key, tc.body).problem(t, 400, cairn.EINVALID)
	}
	ts.wantBalance(t, a, bal)
	if g := ts.do(t, "GET", "/v1/memory/"+id, a.Key, nil).must(t, 200); g.num("version") != 1 {
		t.Fatalf("a rejected body changed the memory: %s", g.Body)
	}
}

// TestMemoryOversizedBodies: a JSON body over the limit is 413 on every
// memory endpoint that takes one (and the OpenAPI document says so), and
// refunded, whether it declares its length or is sent chunked.
func TestMemoryOversizedBodies(t *testing.T) {
	ts, a := memServer(t, 1000)
	id := ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "big/probe", "content": "x"}).must(t, 201).str("id")
	bal := ts.balance(t, a.Key)
	big := `{"key":"big/one","content":"` + strings.Repeat("z", 1<<20) + `"}`
	for _, p := range []struct{ method, path string }{
		{"POST", "/v1/memory"}, {"PUT", "/v1/memory/" + id}, {"POST", "/v1/memory/bulk"}, {"POST", "/v1/memory/search"},
		{"POST", "/v1/memory/bulk-delete"}, {"POST", "/v1/memory/ttl-alerts"}, {"PATCH", "/v1/memory/" + id + "/importance"},
	} {
		ts.do(t, p.method, p.path, a.Key, big).problem(t, 413, cairn.ETOOLARGE)
		for _, idem := range []string{"", "big-1"} {
			req, _ := http.NewRequest(p.method, ts.base+p.path, struct{ *strings.Reader }{strings.NewReader(big)}) // no length: chunked
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+a.Key)
			if idem != "" {
				req.Header.Set("Idempotency-Key", idem)
			}
			ts.send(t, req).problem(t, 413, cairn.ETOOLARGE)
		}
	}
	ts.wantBalance(t, a, bal)
}

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

// TestMemoryBadQueryParams: every malformed query parameter of the free
// listing endpoints is 400, and of the paid listing 400 and refunded.
func TestMemoryBadQueryParams(t *testing.T) {
	ts, a := memServer(t, 1000)
	bal := ts.balance(t, a.Key)
	for _, q := range []string{"limit=abc", "limit=-1", "limit=1.5", "limit=", "offset=abc", "offset=", "offset=1.5",
		"minImportance=NaN", "minImportance=Inf", "minImportance=", "minImportance=-0.1", "sortBy=createdat",
		"pinned=1", "history=TRUE", "cursor=%00", "limit=99999999999999999999"} {
		ts.do(t, "GET", "/v1/memory?"+q, a.Key, nil).problem(t, 400, cairn.EINVALID)
	}
	ts.wantBalance(t, a, bal)
	for _, q := range []string{"within=0h", "within=abc", "within=1h&limit=0", "limit=101", "within=-1h", "within=1.5h"} {
		ts.do(t, "GET", "/v1/memory/expiring?"+q, a.Key, nil).problem(t, 400, cairn.EINVALID)
	}
	for _, q := range []string{"limit=0", "limit=101", "limit=x", "action=READ", "action=read&cursor=x", "cursor=%ff"} {
		ts.do(t, "GET", "/v1/memory/audit?"+q, a.Key, nil).problem(t, 400, cairn.EINVALID)
	}
	ts.wantBalance(t, a, bal)
}

// TestMemoryUnicodeAndEdgeValues: non-ASCII keys, tags, file names and
// content, empty content and files, and odd ids all round-trip or fail
// with a 4xx problem.
func TestMemoryUnicodeAndEdgeValues(t *testing.T) {
	ts, a := memServer(t, 1000)
	key := "notes/日本語/😀 ümlaut"
	content := "emoji 🧭, RTL \u05e9\u05dc\u05d5\u05dd, NUL \u0000 and \u2028"
	r := ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": key, "content": content,
		"metadata": map[string]any{"tags": []string{"τag", strings.Repeat("é", 32)}}}).must(t, 201)
	id := r.str("id")
	if r.str("blobName") != "memory/semantic/"+key+"/v1" {
		t.Fatalf("unicode create: %s", r.Body)
	}
	if g := ts.do(t, "GET", "/v1/memory/"+id, a.Key, nil).must(t, 200); g.str("content") != content || g.str("key") != key {
		t.Fatalf("unicode get: %s", g.Body)
	}
	if s := ts.do(t, "POST", "/v1/memory/search", a.Key, map[string]any{"query": "日本", "tags": []string{"τag"}}).must(t, 200); s.num("count") != 1 {
		t.Fatalf("unicode search: %s", s.Body)
	}
	if d := ts.do(t, "GET", "/v1/memory/"+id+"/download", a.Key, nil).must(t, 200); string(d.Body) != content {
		t.Fatalf("unicode download: %q", d.Body)
	}
	// Tags are bounded in bytes: 33 two-byte runes are 66 bytes.
	ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "t", "content": "x", "metadata": map[string]any{"tags": []string{strings.Repeat("é", 33)}}}).
		problem(t, 400, cairn.EINVALID)
	// Empty content and an empty file are memories of size 0.
	e := ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "empty", "content": ""}).must(t, 201)
	if g := ts.do(t, "GET", "/v1/memory/"+e.str("id"), a.Key, nil).must(t, 200); g.str("content") != "" || g.num("sizeBytes") != 0 {
		t.Fatalf("empty content: %s", g.Body)
	}
	f := ts.memUpload(t, a.Key, map[string]string{"type": "file", "key": "files/résumé"}, "résumé 📄.pdf", []byte{}).must(t, 201)
	d := ts.do(t, "GET", "/v1/memory/"+f.str("id")+"/download", a.Key, nil).must(t, 200)
	if len(d.Body) != 0 || d.Header.Get("Content-Length") != "0" || !strings.Contains(d.Header.Get("Content-Disposition"), "filename*=utf-8''r%C3%A9sum%C3%A9%20%F0%9F%93%84.pdf") {
		t.Fatalf("empty unicode file: %v", d.Header)
	}
	// Odd ids are a charged 404; an escaped slash names no route (free).
	for _, tc := range []struct {
		id   string
		cost int
	}{{strings.Repeat("x", 5000), 1}, {"%00", 1}, {"..", 1}, {"%2e%2e", 1}, {"a%2Fb", 0}} {
		bal := ts.balance(t, a.Key)
		ts.do(t, "GET", "/v1/memory/"+tc.id, a.Key, nil).problem(t, 404, cairn.ENOTFOUND)
		ts.wantBalance(t, a, bal-tc.cost)
	}
}

// TestMemoryUploadFormEdges: the multipart form of an upload, wrong in
// every way a client can get it wrong: 4xx, refunded, nothing stored.
func TestMemoryUploadFormEdges(t *testing.T) {
	ts, a := memServer(t, 1000)
	bal := ts.balance(t, a.Key)
	raw := func(ctype, body string) *response {
		req, _ := http.NewRequest("POST", ts.base+"/v1/memory/upload", strings.NewReader(body))
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		req.Header.Set("Authorization", "Bearer "+a.Key)
		return ts.send(t, req)
	}
	raw("application/json", `{"type":"file","key":"k"}`).problem(t, 415, cairn.EUNSUPPORTEDMEDIA)
	raw("", "x").problem(t, 415, cairn.EUNSUPPORTEDMEDIA)
	raw("multipart/form-data", "x").problem(t, 400, cairn.EINVALID)
	raw("multipart/form-data; boundary=b", "--b\r\nContent-Disposition: form-data; name=\"key\"\r\n\r\nk").problem(t, 400, cairn.EINVALID)
	raw("multipart/form-data; boundary=b", "").problem(t, 400, cairn.EINVALID)
	for _, fields := range []map[string]string{
		{"importance": "high"},
		{"importance": "NaN"},
		{"importance": "1.5"},
		{"metadata": "[]"},
		{"metadata": `{"visibility":"public"}`},
		{"metadata": `{"tags":"a"}`},
		{"encryptionMeta": "null"},
		{"encryptionMeta": "[1]"},
		{"expiresIn": "0d"},
		{"blobFilename": "a/b"},
		{"blobExtension": strings.Repeat("x", 17)},
		{"type": "File"},
		{"key": "a//b"},
		{"mimeType": strings.Repeat("m", 64<<10+1)},
	} {
		all := map[string]string{"type": "file", "key": "edge/k"}
		for k, v := range fields {
			all[k] = v
		}
		ts.memUpload(t, a.Key, all, "f.bin", []byte("x")).problem(t, 400, cairn.EINVALID)
	}
	many := map[string]string{"type": "file", "key": "edge/k"}
	for i := range 40 {
		many[fmt.Sprint("extra", i)] = "x"
	}
	ts.memUpload(t, a.Key, many, "f.bin", []byte("x")).problem(t, 400, cairn.EINVALID)
	ts.wantBalance(t, a, bal)
	if r := ts.do(t, "GET", "/v1/memory?offset=0", a.Key, nil).must(t, 200); r.num("total") != 0 {
		t.Fatalf("a rejected upload was stored: %s", r.Body)
	}
}

// TestMemoryConcurrentCreatesAndDeletes: racing creates of one key make
// one memory (the others 409, charged); racing deletes of one version
// delete it once (the others 404, charged).
func TestMemoryConcurrentCreatesAndDeletes(t *testing.T) {
	ts, a := memServer(t, 10000)
	const n = 8
	race := func(f func(i int) (*response, error)) []*response {
		out := make([]*response, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r, err := f(i)
				if err != nil {
					t.Error(err)
					return
				}
				out[i] = r
			}()
		}
		wg.Wait()
		if slices.Contains(out, nil) {
			t.FailNow()
		}
		return out
	}
	count := func(rs []*response, status int) int {
		k := 0
		for _, r := range rs {
			if r.Status == status {
				k++
			}
		}
		return k
	}
	bal := ts.balance(t, a.Key)
	rs := race(func(i int) (*response, error) {
		return ts.try(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "race/key", "content": fmt.Sprint(i)})
	})
	if count(rs, 201) != 1 || count(rs, 409) != n-1 {
		t.Fatalf("racing creates: %d created, %d conflicts", count(rs, 201), count(rs, 409))
	}
	ts.wantBalance(t, a, bal-5*n)
	var id string
	for _, r := range rs {
		if r.Status == 201 {
			id = r.str("id")
		}
	}
	bal = ts.balance(t, a.Key)
	rs = race(func(int) (*response, error) { return ts.try(t, "DELETE", "/v1/memory/"+id, a.Key, nil) })
	if count(rs, 200) != 1 || count(rs, 404) != n-1 {
		t.Fatalf("racing deletes: %d deleted, %d not found", count(rs, 200), count(rs, 404))
	}
	ts.wantBalance(t, a, bal-2*n)
	ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "race/key", "content": "again"}).must(t, 201)
}

// TestMemoryNullFields: JSON null in an optional field is the field left
// out, on create, PUT, bulk and ttl-alerts.
func TestMemoryNullFields(t *testing.T) {
	ts, a := memServer(t, 1000)
	nulls := `"type":null,"importance":null,"expiresIn":null,"metadata":null,"blobFilename":null,"blobExtension":null,` +
		`"mimeType":null,"encryptionProvider":null,"encryptionMeta":null,"contentEncoding":null`
	r := ts.do(t, "POST", "/v1/memory", a.Key, `{"key":"nulls/a","content":"x",`+nulls+`}`).must(t, 201)
	if r.str("type") != "semantic" || r.num("importance") != 0.5 || r.str("blobName") != "memory/semantic/nulls/a/v1" || r.JSON["expiresAt"] != nil {
		t.Fatalf("create with nulls: %s", r.Body)
	}
	id := r.str("id")
	ts.do(t, "PATCH", "/v1/memory/"+id+"/importance", a.Key, map[string]any{"importance": 0.9}).must(t, 200)
	ts.do(t, "PUT", "/v1/memory/"+id, a.Key, map[string]any{"content": "y", "metadata": map[string]any{"tags": []string{"k"}, "visibility": "share"}}).must(t, 200)
	p := ts.do(t, "PUT", "/v1/memory/"+id, a.Key, `{"content":"z","key":null,`+nulls+`}`).must(t, 200)
	md := p.JSON["metadata"].(map[string]any)
	if p.num("version") != 3 || p.num("importance") != 0.9 || md["visibility"] != "share" || len(md["tags"].([]any)) != 1 {
		t.Fatalf("PUT with nulls changed the memory: %s", p.Body)
	}
	m := ts.do(t, "POST", "/v1/memory", a.Key, `{"key":"nulls/b","content":"x","metadata":{"tags":null,"visibility":null}}`).must(t, 201)
	if md := m.JSON["metadata"].(map[string]any); md["visibility"] != "private" || len(md["tags"].([]any)) != 0 {
		t.Fatalf("null metadata members: %s", m.Body)
	}
	b := ts.do(t, "POST", "/v1/memory/bulk", a.Key, `{"memories":[{"key":"nulls/c","content":"x",`+nulls+`}, null]}`).must(t, 200)
	res := b.JSON["results"].([]any)
	if res[0].(map[string]any)["status"] != 201.0 || res[1].(map[string]any)["status"] != 400.0 {
		t.Fatalf("bulk with nulls: %s", b.Body)
	}
	ts.do(t, "POST", "/v1/memory/ttl-alerts", a.Key, `{"within":null,"type":null,"renewIds":null,"renewExpiresIn":null}`).must(t, 200)
	ts.do(t, "POST", "/v1/memory/bulk-delete", a.Key, `{"ids":[null]}`).must(t, 200)
}

// TestMemoryFixedPathsWrongMethod: the fixed paths under /v1/memory with
// a method they do not take are 405 with Allow, free; they are not taken
// for a memory id (a charged 404).
func TestMemoryFixedPathsWrongMethod(t *testing.T) {
	ts, a := memServer(t, 1000)
	bal := ts.balance(t, a.Key)
	for _, tc := range []struct{ method, name, allow string }{
		{"GET", "search", "POST"}, {"PUT", "search", "POST"}, {"DELETE", "search", "POST"},
		{"GET", "upload", "POST"}, {"PUT", "bulk", "POST"}, {"GET", "bulk-delete", "POST"},
		{"DELETE", "ttl-alerts", "POST"}, {"PUT", "expiring", "GET"}, {"DELETE", "audit", "GET"},
	} {
		var body any
		if tc.method == "PUT" {
			body = map[string]any{"content": "x"}
		}
		r := ts.do(t, tc.method, "/v1/memory/"+tc.name, a.Key, body).problem(t, 405, cairn.EMETHOD)
		if r.Header.Get("Allow") != tc.allow {
			t.Fatalf("%s %s: Allow %q, want %q", tc.method, tc.name, r.Header.Get("Allow"), tc.allow)
		}
	}
	ts.wantBalance(t, a, bal)
	// Other ids are still ids.
	ts.do(t, "GET", "/v1/memory/searches", a.Key, nil).problem(t, 404, cairn.ENOTFOUND)
	ts.wantBalance(t, a, bal-1)
}
