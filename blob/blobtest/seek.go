package blobtest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/cairn-dev/cairn/blob"
)

// testOpenSeek runs one sequence of Seek and Read calls on an Open'ed blob
// and on a bytes.Reader over the same content, and wants the same answers.
func testOpenSeek(t *testing.T, s blob.Store, _ Control) {
	const size = 150000
	data := content(4, size)
	put(t, s, "seek/blob", data, blob.PutOptions{})
	rc, _, err := s.Open(t.Context(), "seek/blob")
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer rc.Close()
	ref := bytes.NewReader(data)
	steps := []struct {
		off    int64
		whence int
		read   int
	}{
		{0, io.SeekStart, 10},
		{0, io.SeekCurrent, 100},
		{-50, io.SeekCurrent, 50},
		{65530, io.SeekStart, 20},
		{-1, io.SeekEnd, 10},
		{0, io.SeekEnd, 5},
		{size + 100, io.SeekStart, 5},
		{-size - 100, io.SeekCurrent, 10},
		{-size, io.SeekEnd, 70000},
		{1, io.SeekCurrent, 0},
		{0, io.SeekStart, size + 10},
		{-1, io.SeekStart, 1},
		{-size - 1, io.SeekEnd, 1},
		{65536, io.SeekStart, 65536},
		{131071, io.SeekStart, 40000},
	}
	for i, st := range steps {
		wantPos, wantErr := ref.Seek(st.off, st.whence)
		pos, err := rc.Seek(st.off, st.whence)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("step %d: Seek(%d, %d) error %v, want error %v", i, st.off, st.whence, err, wantErr)
		}
		if err != nil {
			continue
		}
		if pos != wantPos {
			t.Fatalf("step %d: Seek(%d, %d) = %d, want %d", i, st.off, st.whence, pos, wantPos)
		}
		want := make([]byte, st.read)
		wn, wantErr := io.ReadFull(ref, want)
		got := make([]byte, st.read)
		n, err := io.ReadFull(rc, got)
		if n != wn || !errors.Is(err, wantErr) {
			t.Fatalf("step %d: ReadFull(%d) at %d = %d, %v; want %d, %v", i, st.read, pos, n, err, wn, wantErr)
		}
		wantBytes(t, fmt.Sprintf("step %d", i), got[:n], want[:wn])
	}
	if err := rc.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
}

// testServeContent serves an Open'ed blob through http.ServeContent, the way
// media streams are served, and checks ranges byte for byte.
func testServeContent(t *testing.T, s blob.Store, _ Control) {
	const size = 100000
	data := content(7, size)
	name := "media/video/clip__ab12cd34.mp4"
	put(t, s, name, data, blob.PutOptions{ContentType: "video/mp4"})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc, info, err := s.Open(r.Context(), name)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer rc.Close()
		w.Header().Set("Content-Type", info.ContentType)
		http.ServeContent(w, r, "", info.CreatedAt, rc)
	}))
	defer srv.Close()
	cases := []struct {
		rng          string
		status       int
		from, to     int // want data[from:to]
		contentRange string
	}{
		{"", http.StatusOK, 0, size, ""},
		{"bytes=100-1123", http.StatusPartialContent, 100, 1124, "bytes 100-1123/100000"},
		{"bytes=0-0", http.StatusPartialContent, 0, 1, "bytes 0-0/100000"},
		{"bytes=65530-65545", http.StatusPartialContent, 65530, 65546, "bytes 65530-65545/100000"},
		{"bytes=-500", http.StatusPartialContent, size - 500, size, "bytes 99500-99999/100000"},
		{"bytes=99990-", http.StatusPartialContent, 99990, size, "bytes 99990-99999/100000"},
		{"bytes=0-200000", http.StatusPartialContent, 0, size, "bytes 0-99999/100000"},
		{"bytes=100000-", http.StatusRequestedRangeNotSatisfiable, 0, 0, "bytes */100000"},
	}
	for _, c := range cases {
		t.Run(c.rng, func(t *testing.T) {
			req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL, nil)
			if err != nil {
				t.Fatal(err)
			}
			if c.rng != "" {
				req.Header.Set("Range", c.rng)
			}
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatalf("GET: %v", err)
			}
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatalf("read body: %v", err)
			}
			if resp.StatusCode != c.status {
				t.Fatalf("status %d, want %d (body %.200q)", resp.StatusCode, c.status, body)
			}
			if got := resp.Header.Get("Content-Range"); got != c.contentRange {
				t.Fatalf("Content-Range %q, want %q", got, c.contentRange)
			}
			if c.status == http.StatusRequestedRangeNotSatisfiable {
				return
			}
			if got := resp.Header.Get("Accept-Ranges"); got != "bytes" {
				t.Fatalf("Accept-Ranges %q, want bytes", got)
			}
			if got := resp.Header.Get("Content-Length"); got != strconv.Itoa(c.to-c.from) {
				t.Fatalf("Content-Length %s, want %d", got, c.to-c.from)
			}
			if got := resp.Header.Get("Content-Type"); got != "video/mp4" {
				t.Fatalf("Content-Type %q", got)
			}
			wantBytes(t, "body", body, data[c.from:c.to])
		})
	}
}
