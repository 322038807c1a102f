package api_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
)

func TestE2EMediaUpload(t *testing.T) {
	ts := apitest.NewServer(t)
	a := ts.Register(t, "")
	t.Run("SniffedPhoto", func(t *testing.T) {
		r := ts.Upload(t, a.Key, apitest.Part{Name: "file", Filename: "cat.png", ContentType: "application/octet-stream", Body: apitest.PNG},
			apitest.Field("title", "A cat"), apitest.Field("metadata", `{"tags":["pets"]}`), apitest.Field("expiresIn", "7d")).Must(t, 201)
		if r.Str("category") != "photo" || r.Str("mimeType") != "image/png" || r.Num("sizeBytes") != float64(len(apitest.PNG)) ||
			r.Str("title") != "A cat" || r.JSON["pinned"] != false || r.Str("filename") != "cat.png" ||
			!strings.HasPrefix(r.Str("blobName"), "media/photo/cat__") || !strings.HasSuffix(r.Str("blobName"), ".png") {
			t.Fatalf("upload: %s", r.Body)
		}
		created, _ := time.Parse(time.RFC3339, r.Str("createdAt"))
		expires, _ := time.Parse(time.RFC3339, r.Str("expiresAt"))
		if d := expires.Sub(created); d != 7*24*time.Hour {
			t.Fatalf("expiresAt - createdAt = %v, want 7d", d)
		}
	})
	t.Run("Categories", func(t *testing.T) {
		for _, tc := range []struct{ ct, want, ext string }{
			{"video/mp4", "video", ".mp4"}, {"audio/mpeg", "audio", ".mp3"}, {"application/pdf", "document", ".pdf"}, {"text/plain; charset=utf-8", "document", ".txt"},
		} {
			r := ts.Upload(t, a.Key, apitest.Part{Name: "file", Filename: "x" + tc.ext, ContentType: tc.ct, Body: []byte("data")}).Must(t, 201)
			if r.Str("category") != tc.want || !blobNameRE.MatchString(r.Str("blobName")) {
				t.Fatalf("%s: %s", tc.ct, r.Body)
			}
		}
	})
	t.Run("HostileName", func(t *testing.T) {
		r := ts.Upload(t, a.Key, apitest.Part{Name: "file", Filename: `..\..\etc/pass` + "\u202e" + `wd .txt`, ContentType: "text/plain", Body: []byte("x")}).Must(t, 201)
		if r.Str("filename") != "passwd .txt" || !blobNameRE.MatchString(r.Str("blobName")) || strings.Contains(r.Str("blobName"), "..") {
			t.Fatalf("sanitised: %s", r.Body)
		}
	})
	t.Run("DefaultTTLAndPinned", func(t *testing.T) {
		r := ts.Upload(t, a.Key, apitest.Part{Name: "file", Filename: "a.bin", Body: []byte{0, 1, 2}}, apitest.Field("pinned", "true")).Must(t, 201)
		created, _ := time.Parse(time.RFC3339, r.Str("createdAt"))
		expires, _ := time.Parse(time.RFC3339, r.Str("expiresAt"))
		if r.JSON["pinned"] != true || expires.Sub(created) != 90*24*time.Hour || r.Str("mimeType") != "application/octet-stream" {
			t.Fatalf("defaults: %s", r.Body)
		}
	})
	before := ts.Balance(t, a.Key)
	t.Run("Errors", func(t *testing.T) {
		file := apitest.Part{Name: "file", Filename: "f.txt", Body: []byte("x")}
		ts.Upload(t, a.Key, apitest.Field("title", "no file")).Problem(t, 400, cairn.EINVALID)
		ts.Upload(t, a.Key, file, apitest.Field("expiresIn", "3y")).Problem(t, 400, cairn.EINVALID)
		ts.Upload(t, a.Key, file, apitest.Field("metadata", `[1,2]`)).Problem(t, 400, cairn.EINVALID)
		ts.Upload(t, a.Key, file, apitest.Field("metadata", `{"a":`)).Problem(t, 400, cairn.EINVALID)
		ts.Upload(t, a.Key, file, apitest.Field("pinned", "yes")).Problem(t, 400, cairn.EINVALID)
		ts.Upload(t, a.Key, apitest.Part{Name: "file", Filename: "big.bin", Body: make([]byte, 10<<20+1)}).Problem(t, 413, cairn.ETOOLARGE)
		ts.Do(t, "POST", "/v1/media/upload", a.Key, `{"file":"x"}`).Problem(t, 415, cairn.EUNSUPPORTEDMEDIA)
	})
	if after := ts.Balance(t, a.Key); after != before-0 {
		t.Fatalf("balance %d after refunded failures, want %d", after, before)
	}
	t.Run("ExactlyTenMB", func(t *testing.T) {
		body := bytes.Repeat([]byte{7}, 10<<20)
		r := ts.Upload(t, a.Key, apitest.Part{Name: "file", Filename: "max.bin", Body: body}).Must(t, 201)
		if r.Num("sizeBytes") != 10<<20 {
			t.Fatalf("size %v", r.Num("sizeBytes"))
		}
	})
}

// TestE2EMediaUploadStorageFailure breaks the blob store under the running
// service (every fan-out directory replaced by a file) and checks that an
// upload is a refunded 502 that leaves no record behind.
func TestE2EMediaUploadStorageFailure(t *testing.T) {
	ts := apitest.NewServer(t)
	dir := ts.Dir
	a := ts.Register(t, "")
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
	ts.Upload(t, a.Key, apitest.Part{Name: "file", Filename: "x.txt", Body: []byte("x")}).Problem(t, 502, cairn.EUPSTREAM)
	if ts.Balance(t, a.Key) != 100 {
		t.Fatal("a failed upload was not refunded")
	}
	if r := ts.Do(t, "GET", "/v1/media", a.Key, nil).Must(t, 200); len(r.JSON["media"].([]any)) != 0 {
		t.Fatal("a failed upload left a record")
	}
}
