package main

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
)

// TestMemoryIdempotencyAcrossRestart creates memories with an
// Idempotency-Key, restarts the server on the same data dir and retries:
// the retry replays the first answer and pays nothing; another body with
// the same key is 409; the sweep forgets the key after 24 hours.
func TestMemoryIdempotencyAcrossRestart(t *testing.T) {
	dir := t.TempDir()
	cfg := testConfig(t, dir)
	cfg.WriteLimitPerAgent, cfg.RateLimitPerKey = 100000, 100000
	clock := cairn.NewManualClock(time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC))
	ts := startServer(t, cfg, func(m *Main) { m.Clock = clock })
	a := ts.register(t, "idem")
	ts.topUp(t, a, 1000)
	body := map[string]any{"key": "idem/restart", "content": "once"}
	first := ts.do(t, "POST", "/v1/memory", a.Key, body, "Idempotency-Key", "k-restart").must(t, 201)
	// A memory upload, sent again byte for byte (same multipart boundary).
	upload := func() *response {
		body := "--b0undary\r\nContent-Disposition: form-data; name=\"type\"\r\n\r\nfile\r\n" +
			"--b0undary\r\nContent-Disposition: form-data; name=\"key\"\r\n\r\nidem/upload\r\n" +
			"--b0undary\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\nContent-Type: text/plain\r\n\r\nhello\r\n" +
			"--b0undary--\r\n"
		req, _ := http.NewRequest("POST", ts.base+"/v1/memory/upload", strings.NewReader(body))
		req.Header.Set("Content-Type", "multipart/form-data; boundary=b0undary")
		req.Header.Set("Authorization", "Bearer "+a.Key)
		req.Header.Set("Idempotency-Key", "k-upload")
		return ts.send(t, req)
	}
	firstUpload := upload().must(t, 201)
	bulkBody := map[string]any{"memories": []any{map[string]any{"key": "idem/bulk/1", "content": "one"}}}
	firstBulk := ts.do(t, "POST", "/v1/memory/bulk", a.Key, bulkBody, "Idempotency-Key", "k-bulk").must(t, 200)
	ts.wantBalance(t, a, 985)
	ts.stop()

	clock.Advance(time.Hour)
	ts = startServer(t, cfg, func(m *Main) { m.Clock = clock })
	again := ts.do(t, "POST", "/v1/memory", a.Key, body, "Idempotency-Key", "k-restart").must(t, 201)
	if !bytes.Equal(again.Body, first.Body) || again.Header.Get("Idempotent-Replayed") != "true" ||
		again.Header.Get("ETag") != first.Header.Get("ETag") || again.Header.Get("Content-Type") != first.Header.Get("Content-Type") {
		t.Fatalf("replay after restart: %s %v\nfirst: %s %v", again.Body, again.Header, first.Body, first.Header)
	}
	againBulk := ts.do(t, "POST", "/v1/memory/bulk", a.Key, bulkBody, "Idempotency-Key", "k-bulk").must(t, 200)
	if !bytes.Equal(againBulk.Body, firstBulk.Body) || againBulk.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("bulk replay after restart: %s, first %s", againBulk.Body, firstBulk.Body)
	}
	againUpload := upload().must(t, 201)
	if !bytes.Equal(againUpload.Body, firstUpload.Body) || againUpload.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("upload replay after restart: %s, first %s", againUpload.Body, firstUpload.Body)
	}
	ts.wantBalance(t, a, 985) // charged once
	ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "idem/other", "content": "x"}, "Idempotency-Key", "k-restart").
		problem(t, 409, cairn.ECONFLICT)
	ts.wantBalance(t, a, 985) // rejected before billing
	// The record is kept for 24 hours, then swept: the key is new again
	// (and the memory it made already exists).
	clock.Advance(24 * time.Hour)
	ts.m.sweepOnce(context.Background())
	if _, err := ts.m.store.Idempotency(context.Background(), a.ID, "/v1/memory", "k-restart", time.Time{}); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("record after the sweep: %v", err)
	}
	r := ts.do(t, "POST", "/v1/memory", a.Key, body, "Idempotency-Key", "k-restart").problem(t, 409, cairn.ECONFLICT)
	if r.Header.Get("Idempotent-Replayed") != "" {
		t.Fatal("replayed an expired key")
	}
}
