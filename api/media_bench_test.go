package api_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/cairn-dev/cairn/api"
)

// discardWriter is a ResponseWriter that keeps headers and drops the body,
// so that a benchmark measures the handler and not a recorder's buffer.
type discardWriter struct {
	h      http.Header
	status int
}

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (w *discardWriter) WriteHeader(code int)        { w.status = code }

// mediaBench is an in-process server without request limits, the key of
// an agent with a billion credits and 10 MiB of random content (of seed).
func mediaBench(b *testing.B, seed byte) (http.Handler, string, []byte) {
	limits := api.DefaultLimits()
	limits.RequestsPerKey, limits.WritesPerAgent = 0, 0
	h := newServerLimits(b, limits).Handler()
	key, dev := register(b, h)
	post(b, h, "POST", "/v1/admin/credits", adminToken, map[string]any{"developerId": dev, "amount": 1_000_000_000, "reason": "bench"})
	content := make([]byte, 10<<20)
	rng := rand.NewChaCha8([32]byte{seed})
	_, _ = rng.Read(content)
	return h, key, content
}

// BenchmarkMediaStream serves GET /v1/media/:id/stream in process (in-memory
// store, fs blob store on disk, every chunk read verified): the whole
// 10 MiB file, a 1 KiB range of it, and HEAD.
func BenchmarkMediaStream(b *testing.B) {
	h, key, content := mediaBench(b, 7)
	id := uploadForBench(b, h, key, content)
	for _, bc := range []struct {
		name, method, rng string
		status            int
		bytes             int64
	}{
		{"Whole10MiB", "GET", "", 200, 10 << 20},
		{"Range1KiB", "GET", "bytes=5000000-5001023", 206, 1024},
		{"Head", "HEAD", "", 200, 0},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(bc.bytes)
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest(bc.method, "/v1/media/"+id+"/stream", nil)
				req.Header.Set("Authorization", "Bearer "+key)
				if bc.rng != "" {
					req.Header.Set("Range", bc.rng)
				}
				w := &discardWriter{h: http.Header{}}
				h.ServeHTTP(w, req)
				if w.status != bc.status {
					b.Fatalf("status %d", w.status)
				}
			}
		})
	}
}

func uploadForBench(b *testing.B, h http.Handler, key string, content []byte) string {
	body, ct := multipartFile(content)
	return postUpload(b, h, key, body, ct)
}

// multipartFile returns a multipart body with content as its file part.
func multipartFile(content []byte) ([]byte, string) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, _ := mw.CreateFormFile("file", "bench.bin")
	fw.Write(content)
	mw.Close()
	return buf.Bytes(), mw.FormDataContentType()
}

func postUpload(b *testing.B, h http.Handler, key string, body []byte, contentType string) string {
	req := httptest.NewRequest("POST", "/v1/media/upload", bytes.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Authorization", "Bearer "+key)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var m struct{ ID string }
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil || rec.Code != 201 {
		b.Fatalf("upload: %d %s", rec.Code, rec.Body)
	}
	return m.ID
}

// BenchmarkMediaUpload posts a 10 MiB multipart upload in process: the
// file part streamed to the fs blob store (two SHA-256 passes and fsyncs
// there), then the record. Each upload is deleted untimed.
func BenchmarkMediaUpload(b *testing.B) {
	h, key, content := mediaBench(b, 8)
	body, ct := multipartFile(content)
	b.SetBytes(int64(len(content)))
	b.ReportAllocs()
	for b.Loop() {
		id := postUpload(b, h, key, body, ct)
		b.StopTimer()
		post(b, h, "DELETE", "/v1/media/"+id, key, nil)
		b.StartTimer()
	}
}
