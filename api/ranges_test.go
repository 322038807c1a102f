package api

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestCoalesceRanges(t *testing.T) {
	many := make([]string, MaxRanges+1)
	for i := range many {
		many[i] = fmt.Sprintf("%d-%d", i*3, i*3+1)
	}
	for _, tc := range []struct {
		in   string
		want string
		ok   bool
	}{
		{"bytes=0-9", "bytes=0-9", true},
		{"bytes=0-9,10-19,5-12", "bytes=0-19", true},                       // overlapping and adjacent merge
		{"bytes=50-,-10,0-0", "bytes=0-0,50-99", true},                     // open and suffix ranges, sorted
		{"bytes=90-200", "bytes=90-99", true},                              // clipped to the content
		{"bytes=" + strings.Join(many, ","), "", true},                     // too many: the whole content
		{"bytes=" + strings.Repeat("0-0,", 40) + "1-1", "bytes=0-1", true}, // many that merge are fine
		{"bytes=" + strings.Repeat("0-0,", 5000) + "1-1", "", true},        // unless there are thousands
		{"bytes=200-300", "", false},                                       // not satisfiable: left to ServeContent (416)
		{"bytes=a-b", "", false},
		{"items=0-1", "", false},
		{"bytes=5-1", "", false},
	} {
		got, ok := coalesceRanges(tc.in, 100)
		if got != tc.want || ok != tc.ok {
			t.Errorf("coalesceRanges(%.40q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// slowContent is a blob reader that takes its time and records a Close
// that overlaps a Read, or a Read after Close: what a pooled buffer
// returned while ServeContent's multipart goroutine still reads would be.
type slowContent struct {
	*bytes.Reader
	reading, closed atomic.Bool
	misuse          atomic.Int32
}

func (s *slowContent) Read(p []byte) (int, error) {
	if s.closed.Load() {
		s.misuse.Add(1)
	}
	s.reading.Store(true)
	defer s.reading.Store(false)
	time.Sleep(2 * time.Millisecond)
	return s.Reader.Read(p[:min(len(p), 512)])
}

func (s *slowContent) Close() error {
	if s.reading.Load() {
		s.misuse.Add(1)
	}
	s.closed.Store(true)
	return nil
}

// TestAbortedMultiRangeDownload: a client that asks for several ranges and
// hangs up early leaves ServeContent's goroutine reading; the handler's
// Close must neither overlap that Read nor precede another one.
func TestAbortedMultiRangeDownload(t *testing.T) {
	const size = 4 << 20
	var wg sync.WaitGroup
	var contents []*slowContent
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		wg.Add(1)
		defer wg.Done()
		c := &slowContent{Reader: bytes.NewReader(make([]byte, size))}
		mu.Lock()
		contents = append(contents, c)
		mu.Unlock()
		lr := &lockedReader{rc: c}
		defer lr.Close()
		serveRanges(w, r, size, time.Time{}, lr)
	}))
	defer srv.Close()
	for range 10 {
		conn, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "GET / HTTP/1.1\r\nHost: x\r\nRange: bytes=0-1000000,2000000-3000000,3500000-4000000\r\n\r\n")
		br := bufio.NewReader(conn)
		if line, _ := br.ReadString('\n'); !strings.Contains(line, "206") {
			t.Fatalf("status line %q", line)
		}
		io.CopyN(io.Discard, br, 4096)
		conn.Close()
	}
	wg.Wait()
	time.Sleep(50 * time.Millisecond) // let ServeContent's goroutines finish
	for i, c := range contents {
		if n := c.misuse.Load(); n != 0 {
			t.Fatalf("download %d: the blob was closed during a read, or read after close (%d times)", i, n)
		}
	}
}

// FuzzCoalesceRanges: any Range header either is left alone, or becomes
// at most MaxRanges sorted-or-request-ordered ranges inside the content
// that never overlap.
func FuzzCoalesceRanges(f *testing.F) {
	for _, s := range []string{"bytes=0-9", "bytes=0-9,10-19,5-12", "bytes=50-,-10,0-0", "bytes=-0", "bytes=,,", "bytes=9999999999999999999-",
		"bytes=" + strings.Repeat("1-2,", 40)} {
		f.Add(s, int64(100))
	}
	f.Fuzz(func(t *testing.T, h string, size int64) {
		if size <= 0 || size > 1<<40 {
			return
		}
		out, ok := coalesceRanges(h, size)
		if !ok || out == "" {
			return
		}
		spec, found := strings.CutPrefix(out, "bytes=")
		parts := strings.Split(spec, ",")
		if !found || len(parts) > MaxRanges {
			t.Fatalf("%q -> %q", h, out)
		}
		type rng struct{ s, e int64 }
		var rs []rng
		for _, p := range parts {
			var r rng
			if n, err := fmt.Sscanf(p, "%d-%d", &r.s, &r.e); n != 2 || err != nil || r.s < 0 || r.e < r.s || r.e >= size {
				t.Fatalf("%q -> %q: bad range %q", h, out, p)
			}
			rs = append(rs, r)
		}
		for i := range rs {
			for j := range rs {
				if i != j && rs[i].s <= rs[j].e+1 && rs[j].s <= rs[i].e+1 {
					t.Fatalf("%q -> %q: ranges %v and %v overlap or touch", h, out, rs[i], rs[j])
				}
			}
		}
	})
}
