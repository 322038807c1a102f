package api_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"mime"
	"net/http"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
)

func TestMemoryUploadDownload(t *testing.T) {
	ts := newMemServer(t)
	ts.Memory.InlineBytes = -1 // contents in blobs, whose loss is tested
	// upload gives a fresh agent of 1000 credits the file img/pixel (5
	// credits) and returns the agent, the response, the id and the balance.
	upload := func(t *testing.T) (apitest.Agent, *apitest.Response, string, int) {
		t.Helper()
		a := ts.NewAgent(t, 1000)
		r := ts.MemUpload(t, a.Key, map[string]string{"type": "file", "key": "img/pixel", "metadata": `{"tags":["x"],"visibility":"private"}`}, "pixel.png", apitest.PNG).Must(t, 201)
		return a, r, r.Str("id"), 1000 - 5
	}
	t.Run("Upload", func(t *testing.T) {
		a, r, id, bal := upload(t)
		if r.Str("filename") != "pixel.png" || r.Str("mimeType") != "image/png" || r.Num("importance") != 0.5 ||
			r.Str("blobName") != "memory/file/img/pixel/v1" || r.Num("sizeBytes") != float64(len(apitest.PNG)) || r.JSON["expiresAt"] == nil {
			t.Fatalf("upload: %s", r.Body)
		}
		g := ts.Do(t, "GET", "/v1/memory/"+id, a.Key, nil).Must(t, 200)
		if g.Str("contentEncoding") != "base64" || g.Str("content") != base64.StdEncoding.EncodeToString(apitest.PNG) {
			t.Fatalf("get upload: %s", g.Body)
		}
		bal--
		ts.WantBalance(t, a, bal)
	})
	t.Run("Download", func(t *testing.T) {
		a, _, id, bal := upload(t)
		r := ts.Do(t, "GET", "/v1/memory/"+id+"/download", a.Key, nil).Must(t, 200)
		if !bytes.Equal(r.Body, apitest.PNG) || r.Header.Get("Content-Type") != "image/png" ||
			r.Header.Get("Content-Disposition") != `attachment; filename="pixel.png"; filename*=UTF-8''pixel.png` ||
			r.Header.Get("Content-Length") != "67" || r.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Fatalf("download headers %v", r.Header)
		}
		bal--
		// Range is served as for media streams, a range outside the
		// content is a problem document.
		r = ts.Do(t, "GET", "/v1/memory/"+id+"/download", a.Key, nil, "Range", "bytes=1-3").Must(t, 206)
		if !bytes.Equal(r.Body, apitest.PNG[1:4]) || r.Header.Get("Content-Range") != "bytes 1-3/67" {
			t.Fatalf("ranged download %q %v", r.Body, r.Header)
		}
		bal--
		ts.Do(t, "GET", "/v1/memory/"+id+"/download", a.Key, nil, "Range", "bytes=100-200").Problem(t, 416, cairn.ERANGE) // refunded
		ts.WantBalance(t, a, bal)
	})
	t.Run("ErrUploadRefunded", func(t *testing.T) {
		a, _, _, bal := upload(t)
		ts.MemUpload(t, a.Key, map[string]string{"key": "k"}, "f.bin", []byte("x")).Problem(t, 400, cairn.EINVALID)
		ts.MemUpload(t, a.Key, map[string]string{"type": "file"}, "f.bin", []byte("x")).Problem(t, 400, cairn.EINVALID)
		ts.MemUpload(t, a.Key, map[string]string{"type": "file", "key": "k"}, "", nil).Problem(t, 400, cairn.EINVALID)
		ts.MemUpload(t, a.Key, map[string]string{"type": "file", "key": "k", "expiresIn": "soon"}, "f.bin", []byte("x")).Problem(t, 400, cairn.EINVALID)
		ts.MemUpload(t, a.Key, map[string]string{"type": "file", "key": "big"}, "big.bin", make([]byte, 10<<20+1)).Problem(t, 413, cairn.ETOOLARGE)
		ts.MemUpload(t, a.Key, map[string]string{"type": "file", "key": "img/pixel"}, "p.png", apitest.PNG).Problem(t, 409, cairn.ECONFLICT)
		bal -= 5 // only the 409
		ts.WantBalance(t, a, bal)
		// Exactly 10 MB is accepted.
		ts.MemUpload(t, a.Key, map[string]string{"type": "file", "key": "big"}, "big.bin", make([]byte, 10<<20)).Must(t, 201)
		ts.WantBalance(t, a, bal-5)
	})
	t.Run("ErrDownloadBlobLostRefunded", func(t *testing.T) {
		a, _, id, bal := upload(t)
		if err := ts.Blobs.Delete(t.Context(), "agents/"+a.ID+"/v/"+id); err != nil {
			t.Fatal(err)
		}
		ts.Do(t, "GET", "/v1/memory/"+id+"/download", a.Key, nil).Problem(t, 502, cairn.EUPSTREAM)
		ts.Do(t, "GET", "/v1/memory/"+id, a.Key, nil).Problem(t, 502, cairn.EUPSTREAM)
		ts.Do(t, "GET", "/v1/memory/"+cairn.NewID()+"/download", a.Key, nil).Problem(t, 404, cairn.ENOTFOUND)
		bal--
		ts.WantBalance(t, a, bal)
	})
}

func TestMemoryBulkAndIdempotency(t *testing.T) {
	ts := newMemServer(t)
	t.Run("BulkChargesSucceededItems", func(t *testing.T) {
		a, bal := ts.NewAgent(t, 1000), 1000
		ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "taken", "content": "x"}).Must(t, 201)
		bal -= 5
		r := ts.Do(t, "POST", "/v1/memory/bulk", a.Key, map[string]any{"memories": []any{
			map[string]any{"key": "bulk/1", "content": "one"},
			map[string]any{"key": "taken", "content": "dup"},
			map[string]any{"key": "bulk/2", "content": "two", "importance": 7},
			map[string]any{"key": "bulk/3", "content": "three"},
		}}).Must(t, 200)
		res := r.JSON["results"].([]any)
		want := []float64{201, 409, 400, 201}
		for i, w := range want {
			item := res[i].(map[string]any)
			if item["index"] != float64(i) || item["status"] != w || (w == 201) != (item["error"] == nil) {
				t.Fatalf("item %d: %v", i, item)
			}
		}
		if r.Num("succeeded") != 2 || r.Num("failed") != 2 {
			t.Fatalf("bulk: %s", r.Body)
		}
		bal -= 15 // the two stored items and the 409, which keeps its charge (spec 7); the 400 is refunded
		ts.WantBalance(t, a, bal)
	})
	t.Run("FreeItemsNeverRefundAnother", func(t *testing.T) {
		a, bal := ts.NewAgent(t, 1000), 1000
		// With bulk.write priced 0, a failing item has no charge of its own:
		// it must neither take back an earlier paid charge nor crash.
		ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "paid", "content": "x"}).Must(t, 201)
		bal -= 5
		ts.Do(t, "PUT", "/v1/admin/pricing", apitest.AdminToken, map[string]any{"operationCosts": map[string]int{"bulk.write": 0}}).Must(t, 200)
		defer func() {
			ts.Do(t, "PUT", "/v1/admin/pricing", apitest.AdminToken, map[string]any{"operationCosts": map[string]int{"bulk.write": 5}}).Must(t, 200)
		}()
		r := ts.Do(t, "POST", "/v1/memory/bulk", a.Key, map[string]any{"memories": []any{
			map[string]any{"key": "free/1", "content": "one"},
			map[string]any{"key": "paid", "content": "dup"},
			map[string]any{"key": "free/2", "content": "two", "expiresIn": "soon"},
		}}).Must(t, 200)
		if r.Num("succeeded") != 1 || r.Num("failed") != 2 {
			t.Fatalf("free bulk: %s", r.Body)
		}
		ts.WantBalance(t, a, bal)
	})
	t.Run("ErrBulkLimits", func(t *testing.T) {
		a, bal := ts.NewAgent(t, 1000), 1000
		many := make([]any, 21)
		for i := range many {
			many[i] = map[string]any{"key": "k", "content": "x"}
		}
		ts.Do(t, "POST", "/v1/memory/bulk", a.Key, map[string]any{"memories": many}).Problem(t, 400, cairn.EINVALID)
		ts.Do(t, "POST", "/v1/memory/bulk", a.Key, map[string]any{"memories": []any{}}).Problem(t, 400, cairn.EINVALID)
		ids := make([]string, 51)
		ts.Do(t, "POST", "/v1/memory/bulk-delete", a.Key, map[string]any{"ids": ids}).Problem(t, 400, cairn.EINVALID)
		ts.WantBalance(t, a, bal)
	})
	t.Run("BulkDelete", func(t *testing.T) {
		a, bal := ts.NewAgent(t, 1000), 1000
		id := ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "gone", "content": "x"}).Must(t, 201).Str("id")
		bal -= 5
		r := ts.Do(t, "POST", "/v1/memory/bulk-delete", a.Key, map[string]any{"ids": []string{id, cairn.NewID(), id}}).Must(t, 200)
		res := r.JSON["results"].([]any)
		if res[0].(map[string]any)["status"] != 200.0 || res[1].(map[string]any)["status"] != 404.0 || res[2].(map[string]any)["status"] != 404.0 {
			t.Fatalf("bulk-delete: %s", r.Body)
		}
		bal -= 6 // memory.delete for each: a 404 keeps its charge (spec 7)
		ts.WantBalance(t, a, bal)
	})
	t.Run("IdempotencyKey", func(t *testing.T) {
		a, bal := ts.NewAgent(t, 1000), 1000
		body := map[string]any{"key": "idem", "content": "once"}
		first := ts.Do(t, "POST", "/v1/memory", a.Key, body, "Idempotency-Key", "k-1").Must(t, 201)
		again := ts.Do(t, "POST", "/v1/memory", a.Key, body, "Idempotency-Key", "k-1").Must(t, 201)
		if again.Str("id") != first.Str("id") || again.Header.Get("Idempotent-Replayed") != "true" {
			t.Fatalf("replay: %s vs %s", again.Body, first.Body)
		}
		bal -= 5
		ts.WantBalance(t, a, bal)
		ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "idem2", "content": "other"}, "Idempotency-Key", "k-1").Problem(t, 409, cairn.ECONFLICT)
		ts.WantBalance(t, a, bal) // rejected before billing
		b := ts.Register(t, "b")
		ts.Do(t, "POST", "/v1/memory", b.Key, body, "Idempotency-Key", "k-1").Must(t, 201) // keys are per agent
	})
}

// TestMemoryMimeTypeIsAHeaderValue: the mimeType of a memory comes back as
// the download's Content-Type, so it must be a media type: a control
// character, a line break, a broken parameter or an oversized value is 400
// (refunded) on create, PUT, bulk and upload, and a valid one round-trips.
func TestMemoryMimeTypeIsAHeaderValue(t *testing.T) {
	ts, a := memServer(t, 1000)
	id := ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "mime/ok", "content": "# title", "mimeType": "text/markdown; charset=utf-8"}).Must(t, 201).Str("id")
	if d := ts.Do(t, "GET", "/v1/memory/"+id+"/download", a.Key, nil).Must(t, 200); d.Header.Get("Content-Type") != "text/markdown; charset=utf-8" {
		t.Fatalf("download Content-Type %q", d.Header.Get("Content-Type"))
	}
	bal := ts.Balance(t, a.Key)
	for _, mt := range []string{"\x00", "text/plain\r\nX-Injected: 1", "text/plain\x7f", "tëxt/plain", `text/html; charset="x`,
		"text/plain; =x", strings.Repeat("m", 300)} {
		ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "mime/bad", "content": "x", "mimeType": mt}).Problem(t, 400, cairn.EINVALID)
		ts.Do(t, "PUT", "/v1/memory/"+id, a.Key, map[string]any{"content": "x", "mimeType": mt}).Problem(t, 400, cairn.EINVALID)
		ts.MemUpload(t, a.Key, map[string]string{"type": "file", "key": "mime/up", "mimeType": mt}, "f.bin", []byte("x")).Problem(t, 400, cairn.EINVALID)
		r := ts.Do(t, "POST", "/v1/memory/bulk", a.Key, map[string]any{"memories": []any{map[string]any{"key": "mime/bulk", "content": "x", "mimeType": mt}}}).Must(t, 200)
		if item := r.JSON["results"].([]any)[0].(map[string]any); item["status"] != 400.0 {
			t.Fatalf("bulk with mimeType %q: %s", mt, r.Body)
		}
	}
	ts.WantBalance(t, a, bal)
}

// TestMemoryUploadFilenameSanitized: the file name of an upload comes back
// in the record and as the download's Content-Disposition, so it is made a
// safe display name as for media: no path, no control or format characters
// (a right-to-left override would disguise the extension), valid UTF-8, at
// most 255 bytes, "file" when nothing is left.
func TestMemoryUploadFilenameSanitized(t *testing.T) {
	ts, a := memServer(t, 1000)
	for i, tc := range []struct{ sent, want string }{
		{"report.pdf", "report.pdf"},
		{"évaluation 📄.pdf", "évaluation 📄.pdf"},
		{"evil\u202etxt.exe", "eviltxt.exe"},
		{"bad\xffutf.txt", "badutf.txt"},
		{"  ..  ", "file"},
		{strings.Repeat("g", 900<<10), strings.Repeat("g", 255)},
	} {
		r := ts.MemUpload(t, a.Key, map[string]string{"type": "file", "key": fmt.Sprint("names/", i)}, tc.sent, []byte("x")).Must(t, 201)
		if r.Str("filename") != tc.want {
			t.Fatalf("filename %q stored as %q, want %q", tc.sent, r.Str("filename"), tc.want)
		}
		d := ts.Do(t, "GET", "/v1/memory/"+r.Str("id")+"/download", a.Key, nil).Must(t, 200)
		if _, params, err := mime.ParseMediaType(d.Header.Get("Content-Disposition")); err != nil || params["filename"] != tc.want {
			t.Fatalf("Content-Disposition %.300q for %q: %v", d.Header.Get("Content-Disposition"), tc.want, err)
		}
	}
}

// TestMemoryUploadFormEdges: the multipart form of an upload, wrong in
// every way a client can get it wrong: 4xx, refunded, nothing stored.
func TestMemoryUploadFormEdges(t *testing.T) {
	ts, a := memServer(t, 1000)
	bal := ts.Balance(t, a.Key)
	raw := func(ctype, body string) *apitest.Response {
		req, _ := http.NewRequest("POST", ts.URL+"/v1/memory/upload", strings.NewReader(body))
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		req.Header.Set("Authorization", "Bearer "+a.Key)
		return ts.Send(t, req)
	}
	raw("application/json", `{"type":"file","key":"k"}`).Problem(t, 415, cairn.EUNSUPPORTEDMEDIA)
	raw("", "x").Problem(t, 415, cairn.EUNSUPPORTEDMEDIA)
	raw("multipart/form-data", "x").Problem(t, 400, cairn.EINVALID)
	raw("multipart/form-data; boundary=b", "--b\r\nContent-Disposition: form-data; name=\"key\"\r\n\r\nk").Problem(t, 400, cairn.EINVALID)
	raw("multipart/form-data; boundary=b", "").Problem(t, 400, cairn.EINVALID)
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
		ts.MemUpload(t, a.Key, all, "f.bin", []byte("x")).Problem(t, 400, cairn.EINVALID)
	}
	many := map[string]string{"type": "file", "key": "edge/k"}
	for i := range 40 {
		many[fmt.Sprint("extra", i)] = "x"
	}
	ts.MemUpload(t, a.Key, many, "f.bin", []byte("x")).Problem(t, 400, cairn.EINVALID)
	ts.WantBalance(t, a, bal)
	if r := ts.Do(t, "GET", "/v1/memory?offset=0", a.Key, nil).Must(t, 200); r.Num("total") != 0 {
		t.Fatalf("a rejected upload was stored: %s", r.Body)
	}
}
