package ingest

import (
	"bytes"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob/fs"
)

// TestPutSnapshotStoredMeanwhile: blobs are created, never replaced, so a
// snapshot another ingestion stored between this one's Stat and its Put is
// a conflict; as the name is the content's digest, that is success, and
// the stored snapshot stays as it was.
func TestPutSnapshotStoredMeanwhile(t *testing.T) {
	blobs, err := fs.New(t.TempDir(), fs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := &Pipeline{Blobs: blobs}
	name := "snapshots/0123abcd"
	if err := p.putSnapshot(t.Context(), name, bytes.NewReader([]byte("list")), "text/plain"); err != nil {
		t.Fatal(err)
	}
	before, err := blobs.Stat(t.Context(), name)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.putSnapshot(t.Context(), name, bytes.NewReader([]byte("list")), "text/plain"); err != nil {
		t.Fatalf("second store of the same snapshot: %v", err)
	}
	if after, err := blobs.Stat(t.Context(), name); err != nil || after != before {
		t.Fatalf("snapshot after the second store: %+v, %v; want %+v", after, err, before)
	}
	// Other failures still fail.
	if err := p.putSnapshot(t.Context(), "../bad", bytes.NewReader(nil), "text/plain"); !cairn.IsCode(err, cairn.EINVALID) {
		t.Fatalf("invalid name: %v", err)
	}
}
