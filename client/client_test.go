package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode"
)

// TestEveryOperationHasAMethod keeps the client complete: each operationId
// of the OpenAPI fragments (api/openapi/*.yaml) has a *Client method of the
// same name with its first letter upper-cased.
func TestEveryOperationHasAMethod(t *testing.T) {
	files, err := filepath.Glob("../api/openapi/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no OpenAPI fragments found: %v", err)
	}
	re := regexp.MustCompile(`(?m)^\s+operationId:\s*([A-Za-z0-9_]+)\s*$`)
	ct := reflect.TypeOf(&Client{})
	var missing []string
	n := 0
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(raw), -1) {
			n++
			op := m[1]
			name := string(unicode.ToUpper(rune(op[0]))) + op[1:]
			if _, ok := ct.MethodByName(name); ok {
				continue
			}
			file := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "paths_"), ".yaml") + ".go"
			missing = append(missing, fmt.Sprintf("  operationId %q (%s): add `func (c *Client) %s(ctx context.Context, ...)` to client/%s",
				op, filepath.Base(f), name, file))
		}
	}
	if n < 40 {
		t.Fatalf("found only %d operationIds: is the pattern stale?", n)
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		t.Fatalf("%d OpenAPI operations have no client method (the method is the operationId with its first letter upper-cased; "+
			"type its request and response, and call it from cmd/cairn/e2e_client_test.go):\n%s", len(missing), strings.Join(missing, "\n"))
	}
}

func problem(w http.ResponseWriter, status int, code string) {
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Set("X-Request-Id", "req-1")
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"type":"urn:cairn:problem:%s","title":"t","status":%d,"detail":"d","instance":"/x","code":%q,"requestId":"req-1"}`, code, status, code)
}

// TestRetryAfter: a GET answered 429 with Retry-After waits that long and
// is sent again; the retry's success is returned.
func TestRetryAfter(t *testing.T) {
	var calls atomic.Int32
	var first time.Time
	var gap time.Duration
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			first = time.Now()
			w.Header().Set("Retry-After", "1")
			problem(w, 429, "rate_limited")
			return
		}
		gap = time.Since(first)
		fmt.Fprint(w, `{"developerId":"d","creditBalance":7}`)
	}))
	defer srv.Close()
	c := New(srv.URL, "k", WithRetries(3, time.Millisecond))
	b, err := c.GetBalance(context.Background())
	if err != nil || b.CreditBalance != 7 || calls.Load() != 2 {
		t.Fatalf("balance %+v err %v calls %d", b, err, calls.Load())
	}
	if gap < 900*time.Millisecond {
		t.Fatalf("retried after %v, want the 1s of Retry-After", gap)
	}
}

// TestNoRetryWithoutIdempotencyKey: a POST without an Idempotency-Key is
// sent once even on 503; with a key it is retried with the same body.
func TestNoRetryWithoutIdempotencyKey(t *testing.T) {
	var calls atomic.Int32
	var bodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		bodies = append(bodies, string(b)+"|"+r.Header.Get("Idempotency-Key"))
		if calls.Add(1) < 3 {
			problem(w, 503, "unavailable")
			return
		}
		w.WriteHeader(201)
		fmt.Fprint(w, `{"id":"m1","key":"k"}`)
	}))
	defer srv.Close()
	c := New(srv.URL, "k", WithRetries(3, time.Millisecond))
	_, err := c.CreateMemory(context.Background(), MemoryWrite{Key: "k", Content: "x"}, "")
	var e *Error
	if !errors.As(err, &e) || e.Status != 503 || e.Code != "unavailable" || e.RequestID != "req-1" || calls.Load() != 1 {
		t.Fatalf("err %v calls %d", err, calls.Load())
	}
	m, err := c.CreateMemory(context.Background(), MemoryWrite{Key: "k", Content: "x"}, "idem-1")
	if err != nil || m.ID != "m1" || calls.Load() != 3 {
		t.Fatalf("memory %+v err %v calls %d", m, err, calls.Load())
	}
	if bodies[1] != bodies[2] || !strings.HasSuffix(bodies[2], "|idem-1") {
		t.Fatalf("retry sent %q after %q", bodies[2], bodies[1])
	}
}

// jsonServer answers every request with body as JSON.
func jsonServer(body string) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, body)
	}))
}
