package fs

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

// sizes covers empty, inline (shorter than a chunk), exactly one chunk and
// several chunks.
var sizes = []int{0, 1, 1000, chunkSize - 1, chunkSize, chunkSize + 1, 3*chunkSize + 17}

func testContent(seed, n int) []byte {
	b := make([]byte, n)
	_, _ = rand.NewChaCha8([32]byte{byte(seed), byte(seed >> 8), byte(n), byte(n >> 8)}).Read(b)
	return b
}

func hexSum(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// TestConcurrentPuts: 64 goroutines put blobs of every size under their own
// names and replace 8 shared names concurrently. After a restart every blob
// reads back whole with the Info its Put returned, each shared name holds
// one of the versions written to it, and no file is left over.
func TestConcurrentPuts(t *testing.T) {
	s, clk := newTestStore(t)
	const goroutines, shared = 64, 8
	exp := clk.Now().Add(time.Hour).Truncate(time.Second)
	type put struct {
		data []byte
		info blob.Info
	}
	var mu sync.Mutex
	own := map[string]put{}
	written := map[string][]string{} // shared name -> digests written
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i, n := range sizes {
				name := fmt.Sprintf("own/%d/%d", g, i)
				data := testContent(g*len(sizes)+i, n)
				opts := blob.PutOptions{ContentType: fmt.Sprintf("test/%d", i)}
				if i%2 == 0 {
					opts.ExpiresAt = exp
				}
				info, err := s.Put(t.Context(), name, bytes.NewReader(data), opts)
				if err != nil {
					t.Errorf("Put(%s): %v", name, err)
					return
				}
				sh := fmt.Sprintf("shared/%d", (g+i)%shared)
				sdata := testContent(1000+g, sizes[(g+i)%len(sizes)])
				if _, err := s.Put(t.Context(), sh, bytes.NewReader(sdata), blob.PutOptions{Replace: true}); err != nil {
					t.Errorf("Put(%s): %v", sh, err)
					return
				}
				mu.Lock()
				own[name] = put{data, info}
				written[sh] = append(written[sh], hexSum(sdata))
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}

	s2, err := New(s.Root(), Options{Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	wantFiles := 0
	for name, p := range own {
		if p.info.Name != name || p.info.Size != int64(len(p.data)) || p.info.SHA256 != hexSum(p.data) {
			t.Fatalf("Put(%s) returned %+v", name, p.info)
		}
		got, err := readAll(s2, name)
		if err != nil || !bytes.Equal(got, p.data) {
			t.Fatalf("Get(%s) after restart: %d bytes, %v; want %d", name, len(got), err, len(p.data))
		}
		info, err := s2.Stat(t.Context(), name)
		if err != nil || info != p.info {
			t.Fatalf("Stat(%s) after restart = %+v, %v; want %+v", name, info, err, p.info)
		}
		wantFiles += blobFiles(len(p.data))
	}
	for sh, sums := range written {
		got, err := readAll(s2, sh)
		if err != nil || !slices.Contains(sums, hexSum(got)) {
			t.Fatalf("Get(%s) after restart: %d bytes, %v, not a version written to it", sh, len(got), err)
		}
		wantFiles += blobFiles(len(got))
	}
	if got := files(t, s.Root()); len(got) != wantFiles {
		t.Fatalf("%d files under the root, want %d (sidecars and content files of live blobs)", len(got), wantFiles)
	}
}

// blobFiles is the number of files a blob of n bytes keeps.
func blobFiles(n int) int {
	if n < chunkSize {
		return 1
	}
	return 2
}

// TestCrashDuringCommit stops the commit of concurrent Puts at every point
// where a crash could interrupt it, restarts the store on the same root,
// and checks that every name holds its old blob or the new one, whole, that
// every Put which returned success is there, and that the restart removed
// every leftover.
func TestCrashDuringCommit(t *testing.T) {
	const names = 12
	old := func(i int) []byte { // nil: the name is new
		if i%3 == 0 {
			return nil
		}
		return testContent(i, sizes[i%len(sizes)])
	}
	fresh := func(i int) []byte { return testContent(100+i, sizes[(i+3)%len(sizes)]) }
	for point := 0; ; point++ {
		s, clk := newTestStore(t)
		for i := range names {
			if b := old(i); b != nil {
				if _, err := s.Put(t.Context(), fmt.Sprint(i), bytes.NewReader(b), blob.PutOptions{}); err != nil {
					t.Fatal(err)
				}
			}
		}
		var calls atomic.Int64
		var halted atomic.Bool
		s.crash = func() bool {
			if calls.Add(1) > int64(point) {
				halted.Store(true)
				return true
			}
			return false
		}
		errs := make([]error, names)
		var wg sync.WaitGroup
		for i := range names {
			wg.Go(func() {
				_, errs[i] = s.Put(t.Context(), fmt.Sprint(i), bytes.NewReader(fresh(i)), blob.PutOptions{Replace: true})
			})
		}
		wg.Wait()

		s2, err := New(s.Root(), Options{Clock: clk})
		if err != nil {
			t.Fatal(err)
		}
		wantFiles := 0
		for i := range names {
			name := fmt.Sprint(i)
			got, err := readAll(s2, name)
			switch {
			case err == nil && bytes.Equal(got, fresh(i)):
			case errs[i] == nil:
				t.Fatalf("point %d: Put(%s) succeeded, then read %d bytes, %v", point, name, len(got), err)
			case old(i) == nil && cairn.IsCode(err, cairn.ENOTFOUND):
				continue
			case err == nil && bytes.Equal(got, old(i)):
			default:
				t.Fatalf("point %d: %s reads %d bytes, %v: neither the old blob nor the new", point, name, len(got), err)
			}
			wantFiles += blobFiles(len(got))
		}
		if got := files(t, s.Root()); len(got) != wantFiles {
			t.Fatalf("point %d: files after restart %q, want %d", point, got, wantFiles)
		}
		if !halted.Load() {
			for i, err := range errs {
				if err != nil {
					t.Fatalf("Put(%d) without a crash: %v", i, err)
				}
			}
			if point < names+2 {
				t.Fatalf("no crash at point %d: too few crash points", point)
			}
			t.Logf("%d crash points", point)
			return
		}
	}
}

// TestPutReaderFailure: a failing reader leaves no file behind, whether the
// content would have been inline or in a content file.
func TestPutReaderFailure(t *testing.T) {
	s, _ := newTestStore(t)
	for _, n := range []int{10, 3 * chunkSize} {
		r := &failingReader{r: bytes.NewReader(testContent(n, n))}
		if _, err := s.Put(t.Context(), "x", r, blob.PutOptions{}); err == nil || !strings.Contains(err.Error(), "boom") {
			t.Fatalf("Put with a failing reader after %d bytes: %v", n, err)
		}
	}
	if got := files(t, s.Root()); len(got) != 0 {
		t.Fatalf("files left: %q", got)
	}
}

type failingReader struct{ r *bytes.Reader }

func (f *failingReader) Read(p []byte) (int, error) {
	n, _ := f.r.Read(p)
	if n == 0 {
		return 0, fmt.Errorf("boom")
	}
	return n, nil
}
