package api_test

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
)

// TestMemoryIdempotencyAcrossRestart creates memories with an
// Idempotency-Key, restarts the server on the same data dir and retries:
// the retry replays the first answer and pays nothing; another body with
// the same key is 409; the sweep forgets the key after 24 hours.
func TestMemoryIdempotencyAcrossRestart(t *testing.T) {
	ts, clock := clockedMemServer(t, time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC))
	a := ts.Register(t, "idem")
	ts.TopUp(t, a, 1000)
	body := map[string]any{"key": "idem/restart", "content": "once"}
	first := ts.Do(t, "POST", "/v1/memory", a.Key, body, "Idempotency-Key", "k-restart").Must(t, 201)
	// A memory upload, sent again byte for byte (same multipart boundary).
	upload := func() *apitest.Response {
		body := "--b0undary\r\nContent-Disposition: form-data; name=\"type\"\r\n\r\nfile\r\n" +
			"--b0undary\r\nContent-Disposition: form-data; name=\"key\"\r\n\r\nidem/upload\r\n" +
			"--b0undary\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\nContent-Type: text/plain\r\n\r\nhello\r\n" +
			"--b0undary--\r\n"
		req, _ := http.NewRequest("POST", ts.URL+"/v1/memory/upload", strings.NewReader(body))
		req.Header.Set("Content-Type", "multipart/form-data; boundary=b0undary")
		req.Header.Set("Authorization", "Bearer "+a.Key)
		req.Header.Set("Idempotency-Key", "k-upload")
		return ts.Send(t, req)
	}
	firstUpload := upload().Must(t, 201)
	bulkBody := map[string]any{"memories": []any{map[string]any{"key": "idem/bulk/1", "content": "one"}}}
	firstBulk := ts.Do(t, "POST", "/v1/memory/bulk", a.Key, bulkBody, "Idempotency-Key", "k-bulk").Must(t, 200)
	ts.WantBalance(t, a, 985)
	clock.Advance(time.Hour)
	ts = ts.Restart(t)
	again := ts.Do(t, "POST", "/v1/memory", a.Key, body, "Idempotency-Key", "k-restart").Must(t, 201)
	if !bytes.Equal(again.Body, first.Body) || again.Header.Get("Idempotent-Replayed") != "true" ||
		again.Header.Get("ETag") != first.Header.Get("ETag") || again.Header.Get("Content-Type") != first.Header.Get("Content-Type") {
		t.Fatalf("replay after restart: %s %v\nfirst: %s %v", again.Body, again.Header, first.Body, first.Header)
	}
	againBulk := ts.Do(t, "POST", "/v1/memory/bulk", a.Key, bulkBody, "Idempotency-Key", "k-bulk").Must(t, 200)
	if !bytes.Equal(againBulk.Body, firstBulk.Body) || againBulk.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("bulk replay after restart: %s, first %s", againBulk.Body, firstBulk.Body)
	}
	againUpload := upload().Must(t, 201)
	if !bytes.Equal(againUpload.Body, firstUpload.Body) || againUpload.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("upload replay after restart: %s, first %s", againUpload.Body, firstUpload.Body)
	}
	ts.WantBalance(t, a, 985) // charged once
	ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "idem/other", "content": "x"}, "Idempotency-Key", "k-restart").
		Problem(t, 409, cairn.ECONFLICT)
	ts.WantBalance(t, a, 985) // rejected before billing
	// The record is kept for 24 hours, then swept: the key is new again
	// (and the memory it made already exists).
	clock.Advance(24 * time.Hour)
	ts.Sweep(t)
	if _, err := ts.Store.Idempotency(context.Background(), a.ID, "/v1/memory", "k-restart", time.Time{}); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("record after the sweep: %v", err)
	}
	r := ts.Do(t, "POST", "/v1/memory", a.Key, body, "Idempotency-Key", "k-restart").Problem(t, 409, cairn.ECONFLICT)
	if r.Header.Get("Idempotent-Replayed") != "" {
		t.Fatal("replayed an expired key")
	}
}
