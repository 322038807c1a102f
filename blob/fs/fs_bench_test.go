package fs

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/blob"
)

// Put of 1 KB, 1 MB and 10 MB, one at a time (each a durable write: 1 KB
// is inline, one file fsync and one directory fsync; the others add their
// content file and its directory fsync).
func BenchmarkPut(b *testing.B) {
	for _, n := range []int{1 << 10, 1 << 20, 10 << 20} {
		b.Run(fmt.Sprintf("%dKB", n>>10), func(b *testing.B) {
			s, _ := newTestStore(b)
			data := make([]byte, n)
			b.SetBytes(int64(n))
			for i := 0; b.Loop(); i++ {
				if _, err := s.Put(context.Background(), fmt.Sprintf("bench/%d", i%64), bytes.NewReader(data), blob.PutOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRefWriteFile is the reference for Put: the same bytes written
// durably with the standard library alone (temp file, fsync, rename,
// directory fsync), without digests or sidecar.
func BenchmarkRefWriteFile(b *testing.B) {
	for _, n := range []int{1 << 10, 1 << 20, 10 << 20} {
		b.Run(fmt.Sprintf("%dKB", n>>10), func(b *testing.B) {
			dir := b.TempDir()
			data := make([]byte, n)
			b.SetBytes(int64(n))
			for i := 0; b.Loop(); i++ {
				tmp, final := filepath.Join(dir, "f.tmp"), filepath.Join(dir, fmt.Sprintf("f%d", i%64))
				if err := writeFileSync(tmp, data); err != nil {
					b.Fatal(err)
				}
				if err := os.Rename(tmp, final); err != nil {
					b.Fatal(err)
				}
				if err := syncDir(dir); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func benchStore(b *testing.B) *Store {
	s, _ := newTestStore(b)
	putRandom(b, s, "big", 10<<20)
	return s
}

// BenchmarkGetWhole reads a 10 MB blob through Get, every chunk verified.
func BenchmarkGetWhole(b *testing.B) {
	s := benchStore(b)
	benchReadWhole(b, func() (io.ReadCloser, error) {
		rc, _, err := s.Get(context.Background(), "big", 0, -1)
		return rc, err
	})
}

// BenchmarkRefReadFile is the reference for GetWhole: os.Open + io.Copy of
// the content file, unverified.
func BenchmarkRefReadFile(b *testing.B) {
	s := benchStore(b)
	path := contentPath(&testing.T{}, s, "big")
	benchReadWhole(b, func() (io.ReadCloser, error) { return os.Open(path) })
}

// benchReadWhole reads the 10 MB that open opens to the end, each time.
func benchReadWhole(b *testing.B, open func() (io.ReadCloser, error)) {
	b.SetBytes(10 << 20)
	for b.Loop() {
		rc, err := open()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, rc); err != nil {
			b.Fatal(err)
		}
		rc.Close()
	}
}

// BenchmarkGetRange reads 1 KiB from the middle of a 10 MB blob.
func BenchmarkGetRange(b *testing.B) {
	s := benchStore(b)
	b.SetBytes(1 << 10)
	buf := make([]byte, 1<<10)
	for b.Loop() {
		rc, _, err := s.Get(context.Background(), "big", 5<<20+777, 1<<10)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.ReadFull(rc, buf); err != nil {
			b.Fatal(err)
		}
		rc.Close()
	}
}

// BenchmarkServeContentRange serves "Range: bytes=<1 MiB from the middle>"
// of a 10 MB blob through Open + http.ServeContent.
func BenchmarkServeContentRange(b *testing.B) {
	s := benchStore(b)
	benchServe(b, func(r *http.Request) (io.ReadSeekCloser, error) {
		rc, _, err := s.Open(r.Context(), "big")
		return rc, err
	})
}

// BenchmarkRefServeContentRange is its reference: the content file served
// by http.ServeContent straight from *os.File, unverified.
func BenchmarkRefServeContentRange(b *testing.B) {
	s := benchStore(b)
	path := contentPath(&testing.T{}, s, "big")
	benchServe(b, func(*http.Request) (io.ReadSeekCloser, error) { return os.Open(path) })
}

func benchServe(b *testing.B, open func(*http.Request) (io.ReadSeekCloser, error)) {
	req := httptest.NewRequest(http.MethodGet, "/big", nil)
	req.Header.Set("Range", "bytes=4194304-5242879")
	b.SetBytes(1 << 20)
	for b.Loop() {
		rc, err := open(req)
		if err != nil {
			b.Fatal(err)
		}
		w := httptest.NewRecorder()
		w.Body = bytes.NewBuffer(make([]byte, 0, 1<<20))
		http.ServeContent(w, req, "big", time.Time{}, rc)
		rc.Close()
		if w.Code != http.StatusPartialContent || w.Body.Len() != 1<<20 {
			b.Fatalf("status %d, %d bytes", w.Code, w.Body.Len())
		}
	}
}

// BenchmarkPutParallel: concurrent durable Puts of 1 KiB under distinct
// names, from 8 and 64 goroutines (b.RunParallel).
func BenchmarkPutParallel(b *testing.B) {
	for _, g := range []int{8, 64} {
		b.Run(fmt.Sprintf("1KB/goroutines=%d", g), func(b *testing.B) {
			s, _ := newTestStore(b)
			data := make([]byte, 1<<10)
			var seq atomic.Int64
			b.SetBytes(1 << 10)
			b.SetParallelism(max(1, g/runtime.GOMAXPROCS(0)))
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					name := fmt.Sprintf("bench/%d", seq.Add(1))
					if _, err := s.Put(context.Background(), name, bytes.NewReader(data), blob.PutOptions{}); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}
