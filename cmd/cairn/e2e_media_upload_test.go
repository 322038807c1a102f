package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
)

func TestE2EMediaUpload(t *testing.T) {
	ts := startServer(t, testConfig(t, t.TempDir()))
	a := ts.register(t, "")
	t.Run("SniffedPhoto", func(t *testing.T) {
		r := ts.upload(t, a.Key, part{name: "file", filename: "cat.png", contentType: "application/octet-stream", body: pngBytes},
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
			r := ts.upload(t, a.Key, part{name: "file", filename: "x" + tc.ext, contentType: tc.ct, body: []byte("data")}).must(t, 201)
			if r.str("category") != tc.want || !blobNameRE.MatchString(r.str("blobName")) {
				t.Fatalf("%s: %s", tc.ct, r.Body)
			}
		}
	})
	t.Run("HostileName", func(t *testing.T) {
		r := ts.upload(t, a.Key, part{name: "file", filename: `..\..\etc/pass` + "\u202e" + `wd .txt`, contentType: "text/plain", body: []byte("x")}).must(t, 201)
		if r.str("filename") != "passwd .txt" || !blobNameRE.MatchString(r.str("blobName")) || strings.Contains(r.str("blobName"), "..") {
			t.Fatalf("sanitised: %s", r.Body)
		}
	})
	t.Run("DefaultTTLAndPinned", func(t *testing.T) {
		r := ts.upload(t, a.Key, part{name: "file", filename: "a.bin", body: []byte{0, 1, 2}}, field("pinned", "true")).must(t, 201)
		created, _ := time.Parse(time.RFC3339, r.str("createdAt"))
		expires, _ := time.Parse(time.RFC3339, r.str("expiresAt"))
		if r.JSON["pinned"] != true || expires.Sub(created) != 90*24*time.Hour || r.str("mimeType") != "application/octet-stream" {
			t.Fatalf("defaults: %s", r.Body)
		}
	})
	before := ts.balance(t, a.Key)
	t.Run("Errors", func(t *testing.T) {
		file := part{name: "file", filename: "f.txt", body: []byte("x")}
		ts.upload(t, a.Key, field("title", "no file")).problem(t, 400, cairn.EINVALID)
		ts.upload(t, a.Key, file, field("expiresIn", "3y")).problem(t, 400, cairn.EINVALID)
		ts.upload(t, a.Key, file, field("metadata", `[1,2]`)).problem(t, 400, cairn.EINVALID)
		ts.upload(t, a.Key, file, field("metadata", `{"a":`)).problem(t, 400, cairn.EINVALID)
		ts.upload(t, a.Key, file, field("pinned", "yes")).problem(t, 400, cairn.EINVALID)
		ts.upload(t, a.Key, part{name: "file", filename: "big.bin", body: make([]byte, 10<<20+1)}).problem(t, 413, cairn.ETOOLARGE)
		ts.do(t, "POST", "/v1/media/upload", a.Key, `{"file":"x"}`).problem(t, 415, cairn.EUNSUPPORTEDMEDIA)
	})
	if after := ts.balance(t, a.Key); after != before-0 {
		t.Fatalf("balance %d after refunded failures, want %d", after, before)
	}
	t.Run("ExactlyTenMB", func(t *testing.T) {
		body := bytes.Repeat([]byte{7}, 10<<20)
		r := ts.upload(t, a.Key, part{name: "file", filename: "max.bin", body: body}).must(t, 201)
		if r.num("sizeBytes") != 10<<20 {
			t.Fatalf("size %v", r.num("sizeBytes"))
		}
	})
}

// TestE2EMediaUploadStorageFailure breaks the blob store under the running
// service (every fan-out directory replaced by a file) and checks that an
// upload is a refunded 502 that leaves no record behind.
func TestE2EMediaUploadStorageFailure(t *testing.T) {
	dir := t.TempDir()
	ts := startServer(t, testConfig(t, dir))
	a := ts.register(t, "")
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
	ts.upload(t, a.Key, part{name: "file", filename: "x.txt", body: []byte("x")}).problem(t, 502, cairn.EUPSTREAM)
	if ts.balance(t, a.Key) != 100 {
		t.Fatal("a failed upload was not refunded")
	}
	if r := ts.do(t, "GET", "/v1/media", a.Key, nil).must(t, 200); len(r.JSON["media"].([]any)) != 0 {
		t.Fatal("a failed upload left a record")
	}
}
