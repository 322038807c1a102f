package main

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"mime"
	"mime/multipart"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestE2EMediaRangesAcrossChunks checks exact bytes of ranges that start,
// end and cross the blob store's 64 KiB verification chunks of a 300 KB
// file, single and several at once.
func TestE2EMediaRangesAcrossChunks(t *testing.T) {
	ts := startServer(t, testConfig(t, t.TempDir()))
	a := ts.register(t, "")
	content := make([]byte, 300_000)
	_, _ = rand.NewChaCha8([32]byte{1}).Read(content)
	id := ts.upload(t, a.Key, part{name: "file", filename: "big.bin", contentType: "application/octet-stream", body: content}).must(t, 201).str("id")
	size := int64(len(content))
	for _, tc := range []struct {
		rng        string
		start, end int64 // inclusive
	}{
		{"bytes=65530-65545", 65530, 65545},
		{"bytes=65536-131071", 65536, 131071},
		{"bytes=0-0", 0, 0},
		{"bytes=-70000", size - 70000, size - 1},
		{"bytes=262143-", 262143, size - 1},
		{"bytes=1000-999999", 1000, size - 1},
	} {
		t.Run(tc.rng, func(t *testing.T) {
			r := ts.stream(t, "GET", a.Key, id, "Range", tc.rng).must(t, 206)
			if cr := fmt.Sprintf("bytes %d-%d/%d", tc.start, tc.end, size); r.Header.Get("Content-Range") != cr {
				t.Fatalf("Content-Range %q, want %q", r.Header.Get("Content-Range"), cr)
			}
			if !bytes.Equal(r.Body, content[tc.start:tc.end+1]) {
				t.Fatalf("%d bytes differ from content[%d:%d]", len(r.Body), tc.start, tc.end+1)
			}
		})
	}
	t.Run("TooManyRangesServeTheWhole", func(t *testing.T) {
		var specs []string
		for i := range 17 {
			specs = append(specs, fmt.Sprintf("%d-%d", i*1000, i*1000+1))
		}
		r := ts.stream(t, "GET", a.Key, id, "Range", "bytes="+strings.Join(specs, ",")).must(t, 200)
		if !bytes.Equal(r.Body, content) {
			t.Fatalf("%d bytes, want the whole %d", len(r.Body), len(content))
		}
	})
	t.Run("OverlappingRangesMerge", func(t *testing.T) {
		r := ts.stream(t, "GET", a.Key, id, "Range", "bytes=100-199,150-299,300-310").must(t, 206)
		if r.Header.Get("Content-Range") != fmt.Sprintf("bytes 100-310/%d", size) || !bytes.Equal(r.Body, content[100:311]) {
			t.Fatalf("merged range: %q, %d bytes", r.Header.Get("Content-Range"), len(r.Body))
		}
	})
	t.Run("SeveralAcrossChunks", func(t *testing.T) {
		r := ts.stream(t, "GET", a.Key, id, "Range", "bytes=65535-65536,-3,131000-131100").must(t, 206)
		_, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		mr := multipart.NewReader(bytes.NewReader(r.Body), params["boundary"])
		want := [][2]int64{{65535, 65536}, {size - 3, size - 1}, {131000, 131100}}
		for i := 0; ; i++ {
			p, err := mr.NextPart()
			if err == io.EOF {
				if i != len(want) {
					t.Fatalf("%d parts, want %d", i, len(want))
				}
				return
			} else if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(p)
			w := want[i]
			if !bytes.Equal(got, content[w[0]:w[1]+1]) || p.Header.Get("Content-Range") != fmt.Sprintf("bytes %d-%d/%d", w[0], w[1], size) {
				t.Fatalf("part %d: %q, %d bytes", i, p.Header.Get("Content-Range"), len(got))
			}
		}
	})
	if r := ts.stream(t, "GET", a.Key, id).must(t, 200); !bytes.Equal(r.Body, content) {
		t.Fatal("whole file differs")
	}
}

// TestE2EServerLimits: an oversized header block is refused with 431, and
// a slow client is cut off at the write timeout rather than holding a
// stream open for ever.
func TestE2EServerLimits(t *testing.T) {
	cfg := testConfig(t, t.TempDir())
	// The write timeout also bounds the 8 MiB upload below: 2 s leaves a
	// loaded machine room for it, and is still far below the 13 s the slow
	// reader would take for the whole file.
	cfg.MaxHeaderBytes, cfg.HTTPWriteTimeout = 8<<10, 2*time.Second
	ts := startServer(t, cfg)
	req, _ := http.NewRequest("GET", ts.base+"/healthz", nil)
	req.Header.Set("X-Big", strings.Repeat("a", 64<<10))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Fatalf("64 KiB of headers: %d, want 431", resp.StatusCode)
	}
	ts.do(t, "GET", "/healthz", "", nil).must(t, 200)

	a := ts.register(t, "")
	content := make([]byte, 8<<20)
	id := ts.upload(t, a.Key, part{name: "file", filename: "big.bin", contentType: "application/octet-stream", body: content}).must(t, 201).str("id")
	conn, err := net.Dial("tcp", strings.TrimPrefix(ts.base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET /v1/media/%s/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n\r\n", id, a.Key)
	// Read slowly: 64 KiB per 100 ms would take 13 s for 8 MiB; the server
	// gives up at 2 s, and the client reads what was buffered, then EOF.
	start, got := time.Now(), 0
	buf := make([]byte, 64<<10)
	for time.Since(start) < 20*time.Second {
		n, err := conn.Read(buf)
		got += n
		if err != nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if got >= len(content) || time.Since(start) >= 20*time.Second {
		t.Fatalf("a slow reader got %d of %d bytes in %v: not cut off at the write timeout", got, len(content), time.Since(start))
	}
}
