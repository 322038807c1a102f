package fs

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
	"github.com/cairn-dev/cairn/blob/blobtest"
)

var epoch = time.Date(2025, 3, 4, 5, 6, 7, 8, time.UTC)

// newTestStore returns a store under a fresh temp directory with a manual
// clock.
func newTestStore(t testing.TB) (*Store, *cairn.ManualClock) {
	t.Helper()
	clk := cairn.NewManualClock(epoch)
	s, err := New(filepath.Join(t.TempDir(), "blobs"), Options{Clock: clk})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return s, clk
}

// TestConformance runs the suite with the read cache (the default) and
// without it.
func TestConformance(t *testing.T) {
	for _, tc := range []struct {
		name       string
		cacheBytes int64
	}{{"Cache", 0}, {"NoCache", -1}} {
		t.Run(tc.name, func(t *testing.T) { conformance(t, tc.cacheBytes) })
	}
}

func conformance(t *testing.T, cacheBytes int64) {
	var clocks blobtest.Clocks
	blobtest.RunTests(t, func(t *testing.T) blob.Store {
		clk := cairn.NewManualClock(epoch)
		s, err := New(filepath.Join(t.TempDir(), "blobs"), Options{Clock: clk, CacheBytes: cacheBytes})
		if err != nil {
			t.Fatalf("New: %v", err)
		}
		clocks.Keep(s, clk)
		return s
	}, blobtest.Control{
		Now:     clocks.Now,
		Advance: clocks.Advance,
		Corrupt: func(t *testing.T, s blob.Store, name string, off int64) {
			corrupt(t, s.(*Store), name, off)
		},
	})
}

// corrupt flips the bits of the content byte at off, leaving the record
// as it was.
func corrupt(t *testing.T, s *Store, name string, off int64) {
	t.Helper()
	blobtest.FlipByte(t, contentPath(t, s, name), off+contentOffset(t, s, name))
}

// sidecar is the location of name and the record its sidecar holds.
func sidecar(t *testing.T, s *Store, name string) (loc, *record) {
	t.Helper()
	l := s.locate(name)
	rec, err := readRecord(l)
	if err != nil {
		t.Fatalf("sidecar of %q: %v", name, err)
	}
	return l, rec
}

// contentPath is the file holding the content of name: the content file
// its sidecar refers to, or the sidecar itself for an inline blob.
func contentPath(t *testing.T, s *Store, name string) string {
	t.Helper()
	l, rec := sidecar(t, s, name)
	if rec.isInline() {
		return l.metaPath()
	}
	return l.blobPath(rec.Gen)
}

// contentOffset is where the content of name starts in contentPath.
func contentOffset(t *testing.T, s *Store, name string) int64 {
	t.Helper()
	l, rec := sidecar(t, s, name)
	if !rec.isInline() {
		return 0
	}
	data, err := os.ReadFile(l.metaPath())
	if err != nil {
		t.Fatal(err)
	}
	return int64(bytes.IndexByte(data, '\n') + 1)
}

// files lists every regular file under dir, relative to it.
func files(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
