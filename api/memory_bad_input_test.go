package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
)

// TestMemoryMalformedBodies sends broken JSON, wrong types and the wrong
// Content-Type to every memory endpoint that takes a body: always a 4xx
// problem, never a 500, and every charge given back.
func TestMemoryMalformedBodies(t *testing.T) {
	ts, a := memServer(t, 1000)
	id := ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "body/probe", "content": "x"}).Must(t, 201).Str("id")
	bal := ts.Balance(t, a.Key)
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
			ts.Do(t, p.method, p.path, a.Key, body).Problem(t, 400, cairn.EINVALID)
		}
		ts.Do(t, p.method, p.path, a.Key, `{}`, "Content-Type", "text/plain").Problem(t, 415, cairn.EUNSUPPORTEDMEDIA)
		ts.Do(t, p.method, p.path, a.Key, `{}`, "Content-Type", "application/json; charset").Problem(t, 415, cairn.EUNSUPPORTEDMEDIA)
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
		ts.Do(t, tc.method, tc.path, a.Key, tc.body).Problem(t, 400, cairn.EINVALID)
	}
	ts.WantBalance(t, a, bal)
	if g := ts.Do(t, "GET", "/v1/memory/"+id, a.Key, nil).Must(t, 200); g.Num("version") != 1 {
		t.Fatalf("a rejected body changed the memory: %s", g.Body)
	}
}

// TestMemoryOversizedBodies: a JSON body over the limit is 413 on every
// memory endpoint that takes one (and the OpenAPI document says so), and
// refunded, whether it declares its length or is sent chunked.
func TestMemoryOversizedBodies(t *testing.T) {
	ts, a := memServer(t, 1000)
	id := ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "big/probe", "content": "x"}).Must(t, 201).Str("id")
	bal := ts.Balance(t, a.Key)
	big := `{"key":"big/one","content":"` + strings.Repeat("z", 1<<20) + `"}`
	for _, p := range []struct{ method, path string }{
		{"POST", "/v1/memory"}, {"PUT", "/v1/memory/" + id}, {"POST", "/v1/memory/bulk"}, {"POST", "/v1/memory/search"},
		{"POST", "/v1/memory/bulk-delete"}, {"POST", "/v1/memory/ttl-alerts"}, {"PATCH", "/v1/memory/" + id + "/importance"},
	} {
		ts.Do(t, p.method, p.path, a.Key, big).Problem(t, 413, cairn.ETOOLARGE)
		for _, idem := range []string{"", "big-1"} {
			req, _ := http.NewRequest(p.method, ts.URL+p.path, struct{ *strings.Reader }{strings.NewReader(big)}) // no length: chunked
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+a.Key)
			if idem != "" {
				req.Header.Set("Idempotency-Key", idem)
			}
			ts.Send(t, req).Problem(t, 413, cairn.ETOOLARGE)
		}
	}
	ts.WantBalance(t, a, bal)
}

// TestMemoryBadQueryParams: every malformed query parameter of the free
// listing endpoints is 400, and of the paid listing 400 and refunded.
func TestMemoryBadQueryParams(t *testing.T) {
	ts, a := memServer(t, 1000)
	bal := ts.Balance(t, a.Key)
	for _, q := range []string{"limit=abc", "limit=-1", "limit=1.5", "limit=", "offset=abc", "offset=", "offset=1.5",
		"minImportance=NaN", "minImportance=Inf", "minImportance=", "minImportance=-0.1", "sortBy=createdat",
		"pinned=1", "history=TRUE", "cursor=%00", "limit=99999999999999999999"} {
		ts.Do(t, "GET", "/v1/memory?"+q, a.Key, nil).Problem(t, 400, cairn.EINVALID)
	}
	ts.WantBalance(t, a, bal)
	for _, q := range []string{"within=0h", "within=abc", "within=1h&limit=0", "limit=101", "within=-1h", "within=1.5h"} {
		ts.Do(t, "GET", "/v1/memory/expiring?"+q, a.Key, nil).Problem(t, 400, cairn.EINVALID)
	}
	for _, q := range []string{"limit=0", "limit=101", "limit=x", "action=READ", "action=read&cursor=x", "cursor=%ff"} {
		ts.Do(t, "GET", "/v1/memory/audit?"+q, a.Key, nil).Problem(t, 400, cairn.EINVALID)
	}
	ts.WantBalance(t, a, bal)
}

// TestMemoryUnicodeAndEdgeValues: non-ASCII keys, tags, file names and
// content, empty content and files, and odd ids all round-trip or fail
// with a 4xx problem.
func TestMemoryUnicodeAndEdgeValues(t *testing.T) {
	ts, a := memServer(t, 1000)
	key := "notes/日本語/😀 ümlaut"
	content := "emoji 🧭, RTL \u05e9\u05dc\u05d5\u05dd, NUL \u0000 and \u2028"
	r := ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": key, "content": content,
		"metadata": map[string]any{"tags": []string{"τag", strings.Repeat("é", 32)}}}).Must(t, 201)
	id := r.Str("id")
	if r.Str("blobName") != "memory/semantic/"+key+"/v1" {
		t.Fatalf("unicode create: %s", r.Body)
	}
	if g := ts.Do(t, "GET", "/v1/memory/"+id, a.Key, nil).Must(t, 200); g.Str("content") != content || g.Str("key") != key {
		t.Fatalf("unicode get: %s", g.Body)
	}
	if s := ts.Do(t, "POST", "/v1/memory/search", a.Key, map[string]any{"query": "日本", "tags": []string{"τag"}}).Must(t, 200); s.Num("count") != 1 {
		t.Fatalf("unicode search: %s", s.Body)
	}
	if d := ts.Do(t, "GET", "/v1/memory/"+id+"/download", a.Key, nil).Must(t, 200); string(d.Body) != content {
		t.Fatalf("unicode download: %q", d.Body)
	}
	// Tags are bounded in bytes: 33 two-byte runes are 66 bytes.
	ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "t", "content": "x", "metadata": map[string]any{"tags": []string{strings.Repeat("é", 33)}}}).
		Problem(t, 400, cairn.EINVALID)
	// Empty content and an empty file are memories of size 0.
	e := ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "empty", "content": ""}).Must(t, 201)
	if g := ts.Do(t, "GET", "/v1/memory/"+e.Str("id"), a.Key, nil).Must(t, 200); g.Str("content") != "" || g.Num("sizeBytes") != 0 {
		t.Fatalf("empty content: %s", g.Body)
	}
	f := ts.MemUpload(t, a.Key, map[string]string{"type": "file", "key": "files/résumé"}, "résumé 📄.pdf", []byte{}).Must(t, 201)
	d := ts.Do(t, "GET", "/v1/memory/"+f.Str("id")+"/download", a.Key, nil).Must(t, 200)
	if len(d.Body) != 0 || d.Header.Get("Content-Length") != "0" || !strings.Contains(d.Header.Get("Content-Disposition"), "filename*=UTF-8''r%C3%A9sum%C3%A9%20%F0%9F%93%84.pdf") {
		t.Fatalf("empty unicode file: %v", d.Header)
	}
	// Odd ids are a charged 404; an escaped slash names no route (free).
	for _, tc := range []struct {
		id   string
		cost int
	}{{strings.Repeat("x", 5000), 1}, {"%00", 1}, {"..", 1}, {"%2e%2e", 1}, {"a%2Fb", 0}} {
		bal := ts.Balance(t, a.Key)
		ts.Do(t, "GET", "/v1/memory/"+tc.id, a.Key, nil).Problem(t, 404, cairn.ENOTFOUND)
		ts.WantBalance(t, a, bal-tc.cost)
	}
}

// TestMemoryNullFields: JSON null in an optional field is the field left
// out, on create, PUT, bulk and ttl-alerts.
func TestMemoryNullFields(t *testing.T) {
	ts, a := memServer(t, 1000)
	nulls := `"type":null,"importance":null,"expiresIn":null,"metadata":null,"blobFilename":null,"blobExtension":null,` +
		`"mimeType":null,"encryptionProvider":null,"encryptionMeta":null,"contentEncoding":null`
	r := ts.Do(t, "POST", "/v1/memory", a.Key, `{"key":"nulls/a","content":"x",`+nulls+`}`).Must(t, 201)
	if r.Str("type") != "semantic" || r.Num("importance") != 0.5 || r.Str("blobName") != "memory/semantic/nulls/a/v1" || r.JSON["expiresAt"] != nil {
		t.Fatalf("create with nulls: %s", r.Body)
	}
	id := r.Str("id")
	ts.Do(t, "PATCH", "/v1/memory/"+id+"/importance", a.Key, map[string]any{"importance": 0.9}).Must(t, 200)
	ts.Do(t, "PUT", "/v1/memory/"+id, a.Key, map[string]any{"content": "y", "metadata": map[string]any{"tags": []string{"k"}, "visibility": "share"}}).Must(t, 200)
	p := ts.Do(t, "PUT", "/v1/memory/"+id, a.Key, `{"content":"z","key":null,`+nulls+`}`).Must(t, 200)
	md := p.JSON["metadata"].(map[string]any)
	if p.Num("version") != 3 || p.Num("importance") != 0.9 || md["visibility"] != "share" || len(md["tags"].([]any)) != 1 {
		t.Fatalf("PUT with nulls changed the memory: %s", p.Body)
	}
	m := ts.Do(t, "POST", "/v1/memory", a.Key, `{"key":"nulls/b","content":"x","metadata":{"tags":null,"visibility":null}}`).Must(t, 201)
	if md := m.JSON["metadata"].(map[string]any); md["visibility"] != "private" || len(md["tags"].([]any)) != 0 {
		t.Fatalf("null metadata members: %s", m.Body)
	}
	b := ts.Do(t, "POST", "/v1/memory/bulk", a.Key, `{"memories":[{"key":"nulls/c","content":"x",`+nulls+`}, null]}`).Must(t, 200)
	res := b.JSON["results"].([]any)
	if res[0].(map[string]any)["status"] != 201.0 || res[1].(map[string]any)["status"] != 400.0 {
		t.Fatalf("bulk with nulls: %s", b.Body)
	}
	ts.Do(t, "POST", "/v1/memory/ttl-alerts", a.Key, `{"within":null,"type":null,"renewIds":null,"renewExpiresIn":null}`).Must(t, 200)
	ts.Do(t, "POST", "/v1/memory/bulk-delete", a.Key, `{"ids":[null]}`).Must(t, 200)
}

// TestMemoryFixedPathsWrongMethod: the fixed paths under /v1/memory with
// a method they do not take are 405 with Allow, free; they are not taken
// for a memory id (a charged 404).
func TestMemoryFixedPathsWrongMethod(t *testing.T) {
	ts, a := memServer(t, 1000)
	bal := ts.Balance(t, a.Key)
	for _, tc := range []struct{ method, name, allow string }{
		{"GET", "search", "POST"}, {"PUT", "search", "POST"}, {"DELETE", "search", "POST"},
		{"GET", "upload", "POST"}, {"PUT", "bulk", "POST"}, {"GET", "bulk-delete", "POST"},
		{"DELETE", "ttl-alerts", "POST"}, {"PUT", "expiring", "GET"}, {"DELETE", "audit", "GET"},
	} {
		var body any
		if tc.method == "PUT" {
			body = map[string]any{"content": "x"}
		}
		r := ts.Do(t, tc.method, "/v1/memory/"+tc.name, a.Key, body).Problem(t, 405, cairn.EMETHOD)
		if r.Header.Get("Allow") != tc.allow {
			t.Fatalf("%s %s: Allow %q, want %q", tc.method, tc.name, r.Header.Get("Allow"), tc.allow)
		}
	}
	ts.WantBalance(t, a, bal)
	// Other ids are still ids.
	ts.Do(t, "GET", "/v1/memory/searches", a.Key, nil).Problem(t, 404, cairn.ENOTFOUND)
	ts.WantBalance(t, a, bal-1)
}
