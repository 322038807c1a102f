package fs

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

// openFiles lists the files under the store's root this process holds
// open, as /proc/self/fd shows them (a removed one ends in " (deleted)").
func openFiles(t *testing.T, s *Store) []string {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd:", err)
	}
	var out []string
	for _, fd := range fds {
		target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name()))
		if err == nil && strings.HasPrefix(target, s.Root()+string(filepath.Separator)) {
			out = append(out, target)
		}
	}
	return out
}

// uncachedStore has no chunk cache, so that every read reads the file.
func uncachedStore(t *testing.T) (*Store, *cairn.ManualClock) {
	t.Helper()
	clk := cairn.NewManualClock(epoch)
	s, err := New(filepath.Join(t.TempDir(), "blobs"), Options{Clock: clk, CacheBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	return s, clk
}

// TestHandleShared: reads of a blob share one open content file, which
// stays open between them.
func TestHandleShared(t *testing.T) {
	s, _ := uncachedStore(t)
	data := putRandom(t, s, "x", 300000)
	if got := openFiles(t, s); len(got) != 0 {
		t.Fatalf("open before any read: %v", got)
	}
	for i := range 5 {
		got, err := readRange(s, "x", int64(i)*50000, 1024)
		if err != nil || !bytes.Equal(got, data[i*50000:i*50000+1024]) {
			t.Fatalf("read %d: %v", i, err)
		}
	}
	if got := openFiles(t, s); len(got) != 1 || got[0] != contentPath(t, s, "x") {
		t.Fatalf("open after five reads: %v, want the content file once", got)
	}
	r1, _, err := s.Open(t.Context(), "x")
	if err != nil {
		t.Fatal(err)
	}
	r2, _, err := s.Open(t.Context(), "x")
	if err != nil {
		t.Fatal(err)
	}
	if r1.(*reader).f.(*sharedFile).h.f != r2.(*reader).f.(*sharedFile).h.f {
		t.Fatal("two readers of one blob opened two files")
	}
	r1.Close()
	r2.Close()
	if got := openFiles(t, s); len(got) != 1 {
		t.Fatalf("open after the readers closed: %v, want the cached file", got)
	}
}

// TestHandleForgotten: a delete, a replace and an expiry sweep close the
// cached file of the blob (a removed file must not stay allocated), while a
// reader opened before keeps reading the version it opened, and its file
// is closed with it.
func TestHandleForgotten(t *testing.T) {
	changes := map[string]func(t *testing.T, s *Store, clk *cairn.ManualClock){
		"Delete": func(t *testing.T, s *Store, _ *cairn.ManualClock) {
			if err := s.Delete(t.Context(), "x"); err != nil {
				t.Fatal(err)
			}
		},
		"Replace": func(t *testing.T, s *Store, _ *cairn.ManualClock) {
			if _, err := s.Put(t.Context(), "x", bytes.NewReader(make([]byte, 200000)), blob.PutOptions{Replace: true}); err != nil {
				t.Fatal(err)
			}
		},
		"Expiry": func(t *testing.T, s *Store, clk *cairn.ManualClock) {
			clk.Advance(2 * time.Hour)
			if n, err := s.DeleteExpired(t.Context(), clk.Now()); err != nil || n != 1 {
				t.Fatalf("DeleteExpired: %d, %v", n, err)
			}
		},
	}
	for name, change := range changes {
		t.Run(name, func(t *testing.T) {
			s, clk := uncachedStore(t)
			data := make([]byte, 300000)
			copy(data, "version one")
			if _, err := s.Put(t.Context(), "x", bytes.NewReader(data), blob.PutOptions{ExpiresAt: clk.Now().Add(time.Hour)}); err != nil {
				t.Fatal(err)
			}
			old := contentPath(t, s, "x")
			if _, err := readRange(s, "x", 0, 10); err != nil {
				t.Fatal(err)
			}
			rc, _, err := s.Open(t.Context(), "x")
			if err != nil {
				t.Fatal(err)
			}
			change(t, s, clk)
			if got := openFiles(t, s); len(got) != 1 || got[0] != old+" (deleted)" {
				t.Fatalf("open after the change with a reader: %v, want only the old file, removed", got)
			}
			got, err := io.ReadAll(rc)
			if err != nil || !bytes.Equal(got, data) {
				t.Fatalf("reader opened before the change: %d bytes, %v", len(got), err)
			}
			rc.Close()
			if got := openFiles(t, s); len(got) != 0 {
				t.Fatalf("open after the reader closed: %v", got)
			}
			got, err = readRange(s, "x", 0, 100)
			switch name {
			case "Replace":
				if err != nil || !bytes.Equal(got, make([]byte, 100)) {
					t.Fatalf("read after the replace: %q, %v", got[:min(len(got), 16)], err)
				}
			default:
				if !cairn.IsCode(err, cairn.ENOTFOUND) {
					t.Fatalf("read after the change: %v, want ENOTFOUND", err)
				}
			}
		})
	}
}

// TestHandlesBounded: no more than maxOpenHandles content files stay open.
func TestHandlesBounded(t *testing.T) {
	s, _ := uncachedStore(t)
	const n = maxOpenHandles + 20
	for i := range n {
		putRandom(t, s, fmt.Sprint("b", i), 70000+i)
	}
	for i := range n {
		if _, err := readRange(s, fmt.Sprint("b", i), 0, 10); err != nil {
			t.Fatal(err)
		}
	}
	if got := len(openFiles(t, s)); got != maxOpenHandles {
		t.Fatalf("%d files open after reading %d blobs, want %d", got, n, maxOpenHandles)
	}
}

// TestHandlesConcurrent reads blobs from many goroutines while others
// replace and delete them: every read returns a whole version that was
// written, or ENOTFOUND, and no file stays open for a removed blob.
func TestHandlesConcurrent(t *testing.T) {
	s, _ := uncachedStore(t)
	const names, versions = 4, 10
	version := func(name, v int) []byte {
		b := bytes.Repeat([]byte{byte(name), byte(v)}, 40000+name*1000)
		return b
	}
	valid := func(name int, b []byte) bool {
		for v := range versions {
			if bytes.Equal(b, version(name, v)) {
				return true
			}
		}
		return false
	}
	for i := range names {
		if _, err := s.Put(t.Context(), fmt.Sprint("n", i), bytes.NewReader(version(i, 0)), blob.PutOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for i := range names {
		wg.Go(func() {
			for v := 1; v < versions; v++ {
				if v%4 == 0 {
					if err := s.Delete(t.Context(), fmt.Sprint("n", i)); err != nil {
						t.Error(err)
					}
				}
				if _, err := s.Put(t.Context(), fmt.Sprint("n", i), bytes.NewReader(version(i, v)), blob.PutOptions{Replace: true}); err != nil {
					t.Error(err)
				}
			}
		})
	}
	for w := range 8 {
		wg.Go(func() {
			for j := range 200 {
				i := (w + j) % names
				got, err := readRange(s, fmt.Sprint("n", i), 0, -1)
				if err != nil && !cairn.IsCode(err, cairn.ENOTFOUND) {
					t.Errorf("read: %v", err)
				} else if err == nil && !valid(i, got) {
					t.Errorf("read of n%d returned bytes of no version", i)
				}
			}
		})
	}
	wg.Wait()
	for _, f := range openFiles(t, s) {
		if strings.HasSuffix(f, " (deleted)") {
			t.Fatalf("a removed file is still open: %s", f)
		}
	}
}
