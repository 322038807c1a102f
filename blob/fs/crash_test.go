package fs

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

// TestCrashLeftovers lays out what an interrupted Put or Delete leaves
// behind and checks that reads ignore it and that New removes it.
func TestCrashLeftovers(t *testing.T) {
	s, _ := newTestStore(t)
	ctx := t.Context()
	keep := bytes.Repeat([]byte("keep"), 50000)
	put := func(name string, data []byte) {
		t.Helper()
		if _, err := s.Put(ctx, name, bytes.NewReader(data), blob.PutOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	put("keep", keep)
	put("deleted", bytes.Repeat([]byte("gone"), 50000)) // a content file, not inline
	put("small", []byte("inline"))
	kl, dl, gl := s.locate("keep"), s.locate("deleted"), s.locate("ghost")
	deletedContent := contentPath(t, s, "deleted")
	// Delete interrupted after the sidecar went: content without sidecar.
	if err := os.Remove(dl.metaPath()); err != nil {
		t.Fatal(err)
	}
	write := func(path string) string {
		t.Helper()
		if err := os.WriteFile(path, []byte("partial"), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	stale := []string{
		deletedContent,
		// Put of a new name interrupted while writing content.
		write(filepath.Join(gl.dir, gl.key+".0123456789abcdef.blob.tmp")),
		// Put interrupted after the content rename, before the sidecar.
		write(kl.blobPath("fedcba9876543210")),
		write(filepath.Join(gl.dir, gl.key+".00000000000000ff.blob")),
		// Sidecar temp file.
		write(filepath.Join(kl.dir, kl.key+".1111111111111111.meta.tmp")),
		// Put of a new name interrupted before its sidecar's rename.
		write(filepath.Join(gl.dir, gl.key+".2222222222222222.meta.tmp")),
	}
	foreign := []string{
		write(filepath.Join(s.Root(), "README")),
		write(filepath.Join(kl.dir, "notes.txt")),
	}

	t.Run("Ignored", func(t *testing.T) {
		got, err := readAll(s, "keep")
		if err != nil || !bytes.Equal(got, keep) {
			t.Fatalf("Get(keep): %d bytes, %v", len(got), err)
		}
		if got, err := readAll(s, "small"); err != nil || string(got) != "inline" {
			t.Fatalf("Get(small): %q, %v", got, err)
		}
		for _, name := range []string{"ghost", "deleted"} {
			if _, err := s.Stat(ctx, name); !cairn.IsCode(err, cairn.ENOTFOUND) {
				t.Fatalf("Stat(%s): %v, want ENOTFOUND", name, err)
			}
		}
	})
	t.Run("CleanedByNew", func(t *testing.T) {
		s2, err := New(s.Root(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range stale {
			if _, err := os.Stat(p); !os.IsNotExist(err) {
				t.Errorf("%s still exists (%v)", p, err)
			}
		}
		for _, p := range foreign {
			if _, err := os.Stat(p); err != nil {
				t.Errorf("foreign file %s: %v", p, err)
			}
		}
		got, err := readAll(s2, "keep")
		if err != nil || !bytes.Equal(got, keep) {
			t.Fatalf("Get(keep) after New: %d bytes, %v", len(got), err)
		}
		left := files(t, s.Root())
		want := []string{"README", rel(t, s, kl.metaPath()), rel(t, s, contentPath(t, s2, "keep")),
			rel(t, s, s.locate("small").metaPath()),
			rel(t, s, filepath.Join(kl.dir, "notes.txt"))}
		slices.Sort(left)
		slices.Sort(want)
		if !slices.Equal(left, want) {
			t.Fatalf("files after cleanup %q, want %q", left, want)
		}
	})
}

func readAll(s *Store, name string) ([]byte, error) {
	rc, _, err := s.Get(context.Background(), name, 0, -1)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	var b bytes.Buffer
	_, err = b.ReadFrom(rc)
	return b.Bytes(), err
}

func rel(t *testing.T, s *Store, p string) string {
	r, err := filepath.Rel(s.Root(), p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
