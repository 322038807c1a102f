package main

import (
	"context"
	"io/fs"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/media"
)

// countFiles counts the regular files under dir.
func countFiles(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			n++
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestE2EMediaUploadFieldOrder: the body is read as a stream, so form
// fields may come before or after the file; those after it still set the
// expiry and pin, or refuse the upload without leaving a blob behind.
func TestE2EMediaUploadFieldOrder(t *testing.T) {
	dir := t.TempDir()
	ts := startServer(t, testConfig(t, dir))
	a := ts.register(t, "")
	file := part{name: "file", filename: "late.txt", contentType: "text/plain", body: []byte("late fields")}
	blobs := filepath.Join(dir, "blobs")

	t.Run("FieldsAfterFile", func(t *testing.T) {
		r := ts.upload(t, a.Key, file, field("expiresIn", "2h"), field("title", "T"), field("metadata", `{"n":1}`)).must(t, 201)
		created, _ := time.Parse(time.RFC3339, r.str("createdAt"))
		expires, _ := time.Parse(time.RFC3339, r.str("expiresAt"))
		if expires.Sub(created) != 2*time.Hour || r.str("title") != "T" || r.JSON["metadata"].(map[string]any)["n"] != 1.0 {
			t.Fatalf("late fields ignored: %s", r.Body)
		}
		info, err := ts.m.blobs.Stat(context.Background(), media.StorageKey(a.ID, r.str("id")))
		if err != nil || !info.ExpiresAt.Truncate(time.Millisecond).Equal(expires) {
			t.Fatalf("blob expiry %v (%v), want %v", info.ExpiresAt, err, expires)
		}
	})
	t.Run("PinnedAfterFile", func(t *testing.T) {
		r := ts.upload(t, a.Key, file, field("pinned", "true")).must(t, 201)
		info, err := ts.m.blobs.Stat(context.Background(), media.StorageKey(a.ID, r.str("id")))
		if r.JSON["pinned"] != true || err != nil || !info.ExpiresAt.IsZero() {
			t.Fatalf("pinned blob expires at %v (%v)", info.ExpiresAt, err)
		}
	})
	t.Run("FirstValueCounts", func(t *testing.T) {
		r := ts.upload(t, a.Key, field("title", "first"), file, field("title", "second")).must(t, 201)
		if r.str("title") != "first" {
			t.Fatalf("title %q", r.str("title"))
		}
	})
	t.Run("NoFilename", func(t *testing.T) {
		r := ts.upload(t, a.Key, part{name: "file", body: []byte("%PDF-1.4\n")}).must(t, 201)
		if r.str("filename") != "file" || r.str("mimeType") != "application/pdf" || r.str("category") != "document" {
			t.Fatalf("nameless file: %s", r.Body)
		}
	})

	// The refused uploads below are measured from the state the accepted
	// ones above left.
	listed := func() int {
		t.Helper()
		return len(ts.do(t, "GET", "/v1/media?limit=100", a.Key, nil).must(t, 200).JSON["media"].([]any))
	}
	before, files, uploads := ts.balance(t, a.Key), countFiles(t, blobs), listed()
	for _, tc := range []struct {
		name  string
		parts []part
	}{
		{"InvalidTTLAfterFile", []part{file, field("expiresIn", "3y")}},
		{"InvalidMetadataAfterFile", []part{file, field("metadata", `{"a":`)}},
		{"InvalidPinnedAfterFile", []part{file, field("pinned", "TRUE")}},
		{"TwoFiles", []part{file, file}},
		{"OversizedField", []part{file, field("note", string(make([]byte, 17<<10)))}},
		{"InvalidBeforeFile", []part{field("expiresIn", "0d"), file}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts.upload(t, a.Key, tc.parts...).problem(t, 400, cairn.EINVALID)
		})
	}
	if got := ts.balance(t, a.Key); got != before {
		t.Fatalf("balance %d after refused uploads, want %d", got, before)
	}
	if got := countFiles(t, blobs); got != files {
		t.Fatalf("refused uploads left %d blob files", got-files)
	}
	if got := listed(); got != uploads {
		t.Fatalf("%d media listed after refused uploads, want %d", got, uploads)
	}
}
