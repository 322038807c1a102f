package main

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

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
