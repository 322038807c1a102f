package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
)

// pngBytes is a real 1x1 PNG.
var pngBytes = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89" +
	"\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")

type part struct {
	name, filename, contentType string
	body                        []byte
}

// upload posts a multipart body to /v1/media/upload.
func (ts *testServer) upload(key string, parts ...part) *response {
	ts.t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, p := range parts {
		h := textproto.MIMEHeader{}
		cd := mime.FormatMediaType("form-data", map[string]string{"name": p.name})
		if p.filename != "" {
			cd = mime.FormatMediaType("form-data", map[string]string{"name": p.name, "filename": p.filename})
		}
		if cd == "" { // names FormatMediaType refuses: write the header raw
			cd = `form-data; name="` + p.name + `"; filename="` + p.filename + `"`
		}
		h.Set("Content-Disposition", cd)
		if p.contentType != "" {
			h.Set("Content-Type", p.contentType)
		}
		pw, err := w.CreatePart(h)
		if err != nil {
			ts.t.Fatal(err)
		}
		pw.Write(p.body)
	}
	w.Close()
	req, _ := http.NewRequest("POST", ts.base+"/v1/media/upload", &buf)
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+key)
	return ts.send(req)
}

func (ts *testServer) stream(method, key, id string, hdr ...string) *response {
	ts.t.Helper()
	req, _ := http.NewRequest(method, ts.base+"/v1/media/"+id+"/stream", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	return ts.send(req)
}

func field(name, value string) part { return part{name: name, body: []byte(value)} }

var blobNameRE = regexp.MustCompile(`^media/(photo|video|audio|document)/[^/]+__[0-9a-f]{8}(\.[a-z0-9]+)?$`)

func TestE2EMediaUpload(t *testing.T) {
	ts := startServer(t, testConfig(t, t.TempDir()))
	a := ts.register("")
	t.Run("SniffedPhoto", func(t *testing.T) {
		r := ts.upload(a.Key, part{name: "file", filename: "cat.png", contentType: "application/octet-stream", body: pngBytes},
			field("title", "A cat"), field("metadata", `{"tags":["pets"]}`), field("expiresIn", "7d")).must(t, 201)
		if r.str("category") != "photo" || r.str("mimeType") != "image/png" || r.num("sizeBytes") != float64(len(pngBytes)) ||
			r.str("title") != "A cat" || r.JSON["pinned"] != false || r.str("filename") != "cat.png" ||
			!strings.HasPrefix(r.str("blobName"), "media/photo/cat__") || !strings.HasSuffix(r.str("blobName"), ".png") {
			t.Fatalf("upload: %s", r.Body)
		}
		created, _ := time.Parse(time.RFC3339, r.str("createdAt"))
		expires, _ := time.Parse(time.RFC3339, r.str("expiresAt"))
		if d := expires.Sub(created); d != 7*24*time.Hour {
			t.Fatalf("expiresAt - createdAt = %v, want 7d", d)
		}
	})
	t.Run("Categories", func(t *testing.T) {
		for _, tc := range []struct{ ct, want, ext string }{
			{"video/mp4", "video", ".mp4"}, {"audio/mpeg", "audio", ".mp3"}, {"application/pdf", "document", ".pdf"}, {"text/plain; charset=utf-8", "document", ".txt"},
		} {
			r := ts.upload(a.Key, part{name: "file", filename: "x" + tc.ext, contentType: tc.ct, body: []byte("data")}).must(t, 201)
			if r.str("category") != tc.want || !blobNameRE.MatchString(r.str("blobName")) {
				t.Fatalf("%s: %s", tc.ct, r.Body)
			}
		}
	})
	t.Run("HostileName", func(t *testing.T) {
		r := ts.upload(a.Key, part{name: "file", filename: `..\..\etc/pass` + "\u202e" + `wd .txt`, contentType: "text/plain", body: []byte("x")}).must(t, 201)
		if r.str("filename") != "passwd .txt" || !blobNameRE.MatchString(r.str("blobName")) || strings.Contains(r.str("blobName"), "..") {
			t.Fatalf("sanitised: %s", r.Body)
		}
	})
	t.Run("DefaultTTLAndPinned", func(t *testing.T) {
		r := ts.upload(a.Key, part{name: "file", filename: "a.bin", body: []byte{0, 1, 2}}, field("pinned", "true")).must(t, 201)
		created, _ := time.Parse(time.RFC3339, r.str("createdAt"))
		expires, _ := time.Parse(time.RFC3339, r.str("expiresAt"))
		if r.JSON["pinned"] != true || expires.Sub(created) != 90*24*time.Hour || r.str("mimeType") != "application/octet-stream" {
			t.Fatalf("defaults: %s", r.Body)
		}
	})
	before := ts.balance(a.Key)
	t.Run("Errors", func(t *testing.T) {
		file := part{name: "file", filename: "f.txt", body: []byte("x")}
		ts.upload(a.Key, field("title", "no file")).problem(t, 400, cairn.EINVALID)
		ts.upload(a.Key, file, field("expiresIn", "3y")).problem(t, 400, cairn.EINVALID)
		ts.upload(a.Key, file, field("metadata", `[1,2]`)).problem(t, 400, cairn.EINVALID)
		ts.upload(a.Key, file, field("metadata", `{"a":`)).problem(t, 400, cairn.EINVALID)
		ts.upload(a.Key, file, field("pinned", "yes")).problem(t, 400, cairn.EINVALID)
		ts.upload(a.Key, part{name: "file", filename: "big.bin", body: make([]byte, 10<<20+1)}).problem(t, 413, cairn.ETOOLARGE)
		ts.do("POST", "/v1/media/upload", a.Key, `{"file":"x"}`).problem(t, 415, cairn.EUNSUPPORTEDMEDIA)
	})
	if after := ts.balance(a.Key); after != before-0 {
		t.Fatalf("balance %d after refunded failures, want %d", after, before)
	}
	t.Run("ExactlyTenMB", func(t *testing.T) {
		body := bytes.Repeat([]byte{7}, 10<<20)
		r := ts.upload(a.Key, part{name: "file", filename: "max.bin", body: body}).must(t, 201)
		if r.num("sizeBytes") != 10<<20 {
			t.Fatalf("size %v", r.num("sizeBytes"))
		}
	})
}

func TestE2EMediaStream(t *testing.T) {
	ts := startServer(t, testConfig(t, t.TempDir()))
	a, b := ts.register(""), ts.register("")
	content := []byte("0123456789abcdefghijklmnopqrstuvwxyz")
	up := ts.upload(a.Key, part{name: "file", filename: "café notes.txt", contentType: "text/plain", body: content}).must(t, 201)
	id := up.str("id")
	sum := sha256.Sum256(content)
	etag := `"` + hex.EncodeToString(sum[:]) + `"`
	bal := ts.balance(a.Key)

	r := ts.stream("GET", a.Key, id).must(t, 200)
	if !bytes.Equal(r.Body, content) || r.Header.Get("Content-Type") != "text/plain" || r.Header.Get("Accept-Ranges") != "bytes" ||
		r.Header.Get("ETag") != etag || r.Header.Get("Content-Length") != "36" || r.Header.Get("Last-Modified") == "" {
		t.Fatalf("full stream: %v %q", r.Header, r.Body)
	}
	if cd := r.Header.Get("Content-Disposition"); cd != `inline; filename="caf_ notes.txt"; filename*=UTF-8''caf%C3%A9%20notes.txt` {
		t.Fatalf("Content-Disposition %q", cd)
	}
	for _, tc := range []struct{ rng, want, cr string }{
		{"bytes=0-9", "0123456789", "bytes 0-9/36"},
		{"bytes=-5", "vwxyz", "bytes 31-35/36"},
		{"bytes=30-", "uvwxyz", "bytes 30-35/36"},
		{"bytes=35-100", "z", "bytes 35-35/36"},
	} {
		r := ts.stream("GET", a.Key, id, "Range", tc.rng).must(t, 206)
		if string(r.Body) != tc.want || r.Header.Get("Content-Range") != tc.cr {
			t.Fatalf("%s: %q %q", tc.rng, r.Body, r.Header.Get("Content-Range"))
		}
	}
	t.Run("MultipleRanges", func(t *testing.T) {
		r := ts.stream("GET", a.Key, id, "Range", "bytes=0-1,10-12").must(t, 206)
		mt, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if mt != "multipart/byteranges" {
			t.Fatalf("Content-Type %q", mt)
		}
		mr := multipart.NewReader(bytes.NewReader(r.Body), params["boundary"])
		var got []string
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				break
			} else if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(p)
			got = append(got, p.Header.Get("Content-Range")+"="+string(b))
		}
		if strings.Join(got, ";") != "bytes 0-1/36=01;bytes 10-12/36=abc" {
			t.Fatalf("parts %v", got)
		}
	})
	t.Run("IfRange", func(t *testing.T) {
		if r := ts.stream("GET", a.Key, id, "Range", "bytes=0-0", "If-Range", etag); r.Status != 206 || string(r.Body) != "0" {
			t.Fatalf("matching If-Range: %d", r.Status)
		}
		if r := ts.stream("GET", a.Key, id, "Range", "bytes=0-0", "If-Range", `"stale"`); r.Status != 200 || len(r.Body) != 36 {
			t.Fatalf("stale If-Range: %d", r.Status)
		}
	})
	paid := 8 // 1 full + 4 single ranges + 1 multi + 2 If-Range
	if got := ts.balance(a.Key); got != bal-paid {
		t.Fatalf("balance %d, want %d after %d streams", got, bal-paid, paid)
	}
	t.Run("Unsatisfiable416Refunded", func(t *testing.T) {
		r := ts.stream("GET", a.Key, id, "Range", "bytes=100-200").problem(t, 416, cairn.ERANGE)
		if r.Header.Get("Content-Range") != "bytes */36" {
			t.Fatalf("Content-Range %q", r.Header.Get("Content-Range"))
		}
		if got := ts.balance(a.Key); got != bal-paid {
			t.Fatal("a 416 was charged")
		}
	})
	t.Run("HeadIsFree", func(t *testing.T) {
		r := ts.stream("HEAD", a.Key, id).must(t, 200)
		if len(r.Body) != 0 || r.Header.Get("Content-Length") != "36" || r.Header.Get("ETag") != etag {
			t.Fatalf("HEAD: %v", r.Header)
		}
		if got := ts.balance(a.Key); got != bal-paid {
			t.Fatal("HEAD was charged")
		}
	})
	t.Run("Isolation", func(t *testing.T) {
		ts.stream("GET", b.Key, id).problem(t, 404, cairn.ENOTFOUND)
		ts.do("GET", "/v1/media/"+id, b.Key, nil).problem(t, 404, cairn.ENOTFOUND)
		ts.do("DELETE", "/v1/media/"+id, b.Key, nil).problem(t, 404, cairn.ENOTFOUND)
		ts.do("GET", "/v1/media/not-a-uuid", a.Key, nil).problem(t, 404, cairn.ENOTFOUND)
		ts.stream("GET", a.Key, cairn.NewID()).problem(t, 404, cairn.ENOTFOUND)
		if r := ts.do("GET", "/v1/media", b.Key, nil).must(t, 200); len(r.JSON["media"].([]any)) != 0 {
			t.Fatal("another agent's media listed")
		}
	})
	t.Run("MissingBlobIs502Refunded", func(t *testing.T) {
		up := ts.upload(a.Key, part{name: "file", filename: "gone.txt", body: []byte("bye")}).must(t, 201)
		if err := ts.m.blobs.Delete(context.Background(), up.str("blobName")); err != nil {
			t.Fatal(err)
		}
		before := ts.balance(a.Key)
		ts.stream("GET", a.Key, up.str("id")).problem(t, 502, cairn.EUPSTREAM)
		if ts.balance(a.Key) != before {
			t.Fatal("a 502 was not refunded")
		}
		// Delete still succeeds when the blob vanished.
		r := ts.do("DELETE", "/v1/media/"+up.str("id"), a.Key, nil).must(t, 200)
		if r.JSON["deleted"] != true || r.str("id") != up.str("id") || ts.balance(a.Key) != before-2 {
			t.Fatalf("delete: %s", r.Body)
		}
		ts.do("DELETE", "/v1/media/"+up.str("id"), a.Key, nil).problem(t, 404, cairn.ENOTFOUND)
		if ts.balance(a.Key) != before-4 {
			t.Fatal("a 404 delete was refunded")
		}
	})
}

func TestE2EMediaListAndExpiry(t *testing.T) {
	cfg := testConfig(t, t.TempDir())
	cfg.TTLSweepInterval = 0
	clock := cairn.NewManualClock(time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC))
	ts := startServer(t, cfg, func(m *Main) { m.Clock = clock })
	a := ts.register("")
	ts.do("POST", "/v1/admin/credits", admin, map[string]any{"developerId": a.DeveloperID, "amount": 1000, "reason": "test"}).must(t, 200)
	var ids []string
	for i, ct := range []string{"image/png", "audio/wav", "image/gif", "text/plain", "image/jpeg"} {
		ttl := "30d"
		if i == 0 {
			ttl = "1h"
		}
		r := ts.upload(a.Key, part{name: "file", filename: "f", contentType: ct, body: []byte("x")}, field("expiresIn", ttl)).must(t, 201)
		ids = append(ids, r.str("id"))
		clock.Advance(time.Millisecond)
	}
	pinned := ts.upload(a.Key, part{name: "file", filename: "keep.txt", body: []byte("keep")}, field("pinned", "true"), field("expiresIn", "1h")).must(t, 201)

	t.Run("CursorPages", func(t *testing.T) {
		var got []string
		cursor := ""
		for {
			r := ts.do("GET", "/v1/media?category=photo&limit=2&cursor="+cursor, a.Key, nil).must(t, 200)
			for _, m := range r.JSON["media"].([]any) {
				got = append(got, m.(map[string]any)["id"].(string))
			}
			if r.JSON["hasMore"] != true {
				break
			}
			cursor = r.str("nextCursor")
		}
		if strings.Join(got, ",") != strings.Join([]string{ids[4], ids[2], ids[0]}, ",") {
			t.Fatalf("photos newest first: %v", got)
		}
		ts.do("GET", "/v1/media?category=film", a.Key, nil).problem(t, 400, cairn.EINVALID)
		r := ts.do("GET", "/v1/media?limit=1", a.Key, nil).must(t, 200)
		ts.do("GET", "/v1/media?limit=1&category=photo&cursor="+r.str("nextCursor"), a.Key, nil).problem(t, 400, cairn.EINVALID)
	})
	clock.Advance(2 * time.Hour)
	t.Run("ExpiredNeverServed", func(t *testing.T) {
		ts.do("GET", "/v1/media/"+ids[0], a.Key, nil).problem(t, 404, cairn.ENOTFOUND)
		ts.stream("GET", a.Key, ids[0]).problem(t, 404, cairn.ENOTFOUND)
		r := ts.do("GET", "/v1/media?category=photo", a.Key, nil).must(t, 200)
		if len(r.JSON["media"].([]any)) != 2 {
			t.Fatalf("expired media listed: %s", r.Body)
		}
		if r := ts.stream("GET", a.Key, pinned.str("id")).must(t, 200); string(r.Body) != "keep" {
			t.Fatal("pinned media not served after its expiry")
		}
	})
	t.Run("Sweep", func(t *testing.T) {
		ts.m.sweepOnce(context.Background())
		if _, err := ts.m.store.GetMedia(context.Background(), a.ID, ids[0]); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("expired record not swept: %v", err)
		}
		if _, err := ts.m.store.GetMedia(context.Background(), a.ID, pinned.str("id")); err != nil {
			t.Fatalf("pinned record swept: %v", err)
		}
	})
}

// TestE2EMediaUploadStorageFailure breaks the blob store under the running
// service (every fan-out directory replaced by a file) and checks that an
// upload is a refunded 502 that leaves no record behind.
func TestE2EMediaUploadStorageFailure(t *testing.T) {
	dir := t.TempDir()
	ts := startServer(t, testConfig(t, dir))
	a := ts.register("")
	root := filepath.Join(dir, "blobs")
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	broken := 0
	for _, e := range entries {
		if e.IsDir() {
			p := filepath.Join(root, e.Name())
			if err := os.RemoveAll(p); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte("not a directory"), 0o600); err != nil {
				t.Fatal(err)
			}
			broken++
		}
	}
	if broken == 0 {
		t.Fatal("no blob directories to break")
	}
	ts.upload(a.Key, part{name: "file", filename: "x.txt", body: []byte("x")}).problem(t, 502, cairn.EUPSTREAM)
	if ts.balance(a.Key) != 100 {
		t.Fatal("a failed upload was not refunded")
	}
	if r := ts.do("GET", "/v1/media", a.Key, nil).must(t, 200); len(r.JSON["media"].([]any)) != 0 {
		t.Fatal("a failed upload left a record")
	}
}
