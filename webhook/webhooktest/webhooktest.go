// Package webhooktest is a webhook endpoint for tests: a server on
// 127.0.0.1 that hands over each request it gets with its Standard
// Webhooks headers, and the check of a request's signature.
//
// It is imported by tests only. It imports package webhook and the
// standard library.
package webhooktest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/webhook"
)

// Request is a request an endpoint got: its webhook-id,
// webhook-timestamp and webhook-signature headers and its body.
type Request struct {
	ID, Timestamp, Signature string
	Body                     []byte
}

// Verify reports whether the request is signed with secret.
func (r Request) Verify(secret string) bool {
	ts, err := strconv.ParseInt(r.Timestamp, 10, 64)
	return err == nil && webhook.Verify(secret, r.ID, ts, r.Body, r.Signature)
}

// Receiver starts an endpoint that sends each request it gets to the
// channel (which holds 100) and answers the nth (0 first) with status(n),
// or 200 when status is nil. It closes when the test ends.
func Receiver(tb testing.TB, status func(n int) int) (*httptest.Server, chan Request) {
	got := make(chan Request, 100)
	var mu sync.Mutex
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		i := n
		n++
		mu.Unlock()
		got <- Request{r.Header.Get("webhook-id"), r.Header.Get("webhook-timestamp"), r.Header.Get("webhook-signature"), b}
		if status != nil {
			w.WriteHeader(status(i))
		}
	}))
	tb.Cleanup(srv.Close)
	return srv, got
}

// Next waits for the endpoint's next request, failing the test after
// 60 s without one.
func Next(tb testing.TB, got chan Request) Request {
	tb.Helper()
	select {
	case r := <-got:
		return r
	case <-time.After(60 * time.Second):
		tb.Fatal("no webhook delivery")
	}
	return Request{}
}
