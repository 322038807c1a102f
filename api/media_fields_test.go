package api_test

import (
	"context"
	"io/fs"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
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
	ts := apitest.NewServer(t)
	dir := ts.Dir
	a := ts.Register(t, "")
	file := apitest.Part{Name: "file", Filename: "late.txt", ContentType: "text/plain", Body: []byte("late fields")}
	blobs := filepath.Join(dir, "blobs")

	t.Run("FieldsAfterFile", func(t *testing.T) {
		r := ts.Upload(t, a.Key, file, apitest.Field("expiresIn", "2h"), apitest.Field("title", "T"), apitest.Field("metadata", `{"n":1}`)).Must(t, 201)
		created, _ := time.Parse(time.RFC3339, r.Str("createdAt"))
		expires, _ := time.Parse(time.RFC3339, r.Str("expiresAt"))
		if expires.Sub(created) != 2*time.Hour || r.Str("title") != "T" || r.JSON["metadata"].(map[string]any)["n"] != 1.0 {
			t.Fatalf("late fields ignored: %s", r.Body)
		}
		info, err := ts.Blobs.Stat(context.Background(), media.StorageKey(a.ID, r.Str("id")))
		if err != nil || !info.ExpiresAt.Truncate(time.Millisecond).Equal(expires) {
			t.Fatalf("blob expiry %v (%v), want %v", info.ExpiresAt, err, expires)
		}
	})
	t.Run("PinnedAfterFile", func(t *testing.T) {
		r := ts.Upload(t, a.Key, file, apitest.Field("pinned", "true")).Must(t, 201)
		info, err := ts.Blobs.Stat(context.Background(), media.StorageKey(a.ID, r.Str("id")))
		if r.JSON["pinned"] != true || err != nil || !info.ExpiresAt.IsZero() {
			t.Fatalf("pinned blob expires at %v (%v)", info.ExpiresAt, err)
		}
	})
	t.Run("FirstValueCounts", func(t *testing.T) {
		r := ts.Upload(t, a.Key, apitest.Field("title", "first"), file, apitest.Field("title", "second")).Must(t, 201)
		if r.Str("title") != "first" {
			t.Fatalf("title %q", r.Str("title"))
		}
	})
	t.Run("NoFilename", func(t *testing.T) {
		r := ts.Upload(t, a.Key, apitest.Part{Name: "file", Body: []byte("%PDF-1.4\n")}).Must(t, 201)
		if r.Str("filename") != "file" || r.Str("mimeType") != "application/pdf" || r.Str("category") != "document" {
			t.Fatalf("nameless file: %s", r.Body)
		}
	})

	// The refused uploads below are measured from the state the accepted
	// ones above left.
	listed := func() int {
		t.Helper()
		return len(ts.Do(t, "GET", "/v1/media?limit=100", a.Key, nil).Must(t, 200).JSON["media"].([]any))
	}
	before, files, uploads := ts.Balance(t, a.Key), countFiles(t, blobs), listed()
	for _, tc := range []struct {
		name  string
		parts []apitest.Part
	}{
		{"InvalidTTLAfterFile", []apitest.Part{file, apitest.Field("expiresIn", "3y")}},
		{"InvalidMetadataAfterFile", []apitest.Part{file, apitest.Field("metadata", `{"a":`)}},
		{"InvalidPinnedAfterFile", []apitest.Part{file, apitest.Field("pinned", "TRUE")}},
		{"TwoFiles", []apitest.Part{file, file}},
		{"OversizedField", []apitest.Part{file, apitest.Field("note", string(make([]byte, 17<<10)))}},
		{"InvalidBeforeFile", []apitest.Part{apitest.Field("expiresIn", "0d"), file}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts.Upload(t, a.Key, tc.parts...).Problem(t, 400, cairn.EINVALID)
		})
	}
	if got := ts.Balance(t, a.Key); got != before {
		t.Fatalf("balance %d after refused uploads, want %d", got, before)
	}
	if got := countFiles(t, blobs); got != files {
		t.Fatalf("refused uploads left %d blob files", got-files)
	}
	if got := listed(); got != uploads {
		t.Fatalf("%d media listed after refused uploads, want %d", got, uploads)
	}
}
