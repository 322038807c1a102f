package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/api/apitest"
)

// testServer is the real service, started by Main on 127.0.0.1:0 over a
// data dir, exactly as `cairn serve` starts it.
//
// Its helpers take the calling test's t: a subtest's failure is reported
// by that subtest. Helpers that fail the test (do, send, register, ...)
// run on the test's own goroutine; other goroutines use try, which reports
// through t.Errorf and returns transport errors.
type testServer struct {
	m    *Main
	base string
	logs *syncBuffer
	stop func()
}

type syncBuffer = apitest.LogBuffer

func testConfig(t *testing.T, dataDir string) Config {
	cfg := DefaultConfig()
	cfg.Listen = "127.0.0.1:0"
	cfg.DataDir = dataDir
	cfg.AdminToken = "admin-test-token-0123456789abcdef"
	cfg.DepositMnemonic = "shoot island position soft burden budget tooth cruel issue economy destroy above"
	cfg.ShutdownTimeout = 10 * time.Second
	cfg.DefaultSources = false // tests never reach the network
	return cfg
}

func startServer(t *testing.T, cfg Config, setup ...func(*Main)) *testServer {
	t.Helper()
	logs := &syncBuffer{}
	m := NewMain(cfg, io.Discard, logs)
	for _, f := range setup {
		f(m)
	}
	if err := m.Open(context.Background()); err != nil {
		_ = m.Close()
		t.Fatalf("open: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }()
	ts := &testServer{m: m, base: "http://" + m.Addr(), logs: logs}
	var once sync.Once
	ts.stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("run: %v", err)
			}
			if err := m.Close(); err != nil {
				t.Errorf("close: %v", err)
			}
		})
	}
	t.Cleanup(ts.stop)
	return ts
}

// response is a decoded HTTP response.
type response struct {
	Status int
	Header http.Header
	Body   []byte
	JSON   map[string]any
}

func (r *response) str(k string) string {
	s, _ := r.JSON[k].(string)
	return s
}

func (r *response) num(k string) float64 {
	f, _ := r.JSON[k].(float64)
	return f
}

// do sends a request with an optional bearer token and JSON body (a string
// is sent verbatim) and validates the response against the OpenAPI
// document.
func (ts *testServer) do(t *testing.T, method, path, token string, body any, hdr ...string) *response {
	t.Helper()
	r, err := ts.try(t, method, path, token, body, hdr...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// try is do for goroutines other than the test's: it returns the
// transport error instead of failing the test, and reports a response the
// OpenAPI document does not allow through t.Errorf.
func (ts *testServer) try(t *testing.T, method, path, token string, body any, hdr ...string) (*response, error) {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, ts.base+path, rd)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	return ts.roundTrip(t, req)
}

// send sends a prepared request and validates the response against the
// OpenAPI document.
func (ts *testServer) send(t *testing.T, req *http.Request) *response {
	t.Helper()
	r, err := ts.roundTrip(t, req)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// roundTrip is send returning the transport error (see try).
func (ts *testServer) roundTrip(t *testing.T, req *http.Request) (*response, error) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", req.Method, req.URL.Path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("%s %s: read body: %w", req.Method, req.URL.Path, err)
	}
	r := &response{Status: resp.StatusCode, Header: resp.Header, Body: raw}
	if len(raw) > 0 && (strings.Contains(resp.Header.Get("Content-Type"), "json")) {
		_ = json.Unmarshal(raw, &r.JSON)
	}
	validateAgainstDocument(t, req, resp, raw)
	return r, nil
}

// race sends n requests at once from goroutines of their own (send(i)
// makes the i-th, with try) and returns the responses in order; a
// transport error fails the test once all are done.
func race(t *testing.T, n int, send func(i int) (*response, error)) []*response {
	t.Helper()
	out := make([]*response, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r, err := send(i)
			if err != nil {
				t.Error(err)
				return
			}
			out[i] = r
		})
	}
	wg.Wait()
	if slices.Contains(out, nil) {
		t.FailNow()
	}
	return out
}

// must fails the test unless the response has the status.
func (r *response) must(t *testing.T, status int) *response {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d; body: %s", r.Status, status, r.Body)
	}
	return r
}

// problem fails unless the response is a problem document with the code.
func (r *response) problem(t *testing.T, status int, code string) *response {
	t.Helper()
	r.must(t, status)
	if ct := r.Header.Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("Content-Type %q, want application/problem+json; body %s", ct, r.Body)
	}
	if r.str("code") != code || r.num("status") != float64(status) || r.str("requestId") == "" {
		t.Fatalf("problem %s, want code %q", r.Body, code)
	}
	if r.str("requestId") != r.Header.Get("X-Request-Id") {
		t.Fatalf("requestId %q differs from X-Request-Id %q", r.str("requestId"), r.Header.Get("X-Request-Id"))
	}
	return r
}

// agent is a registered agent as the tests see it.
type agent struct {
	ID, DeveloperID, Key, Secret, Address string
}

func (ts *testServer) register(t *testing.T, name string) agent {
	t.Helper()
	var body any
	if name != "" {
		body = map[string]any{"name": name}
	}
	r := ts.do(t, "POST", "/v1/auth/agent-register", "", body).must(t, 201)
	return agent{ID: r.str("agentId"), DeveloperID: r.str("developerId"), Key: r.str("apiKey"),
		Secret: r.str("rotationSecret"), Address: r.str("aptosAddress")}
}

func (ts *testServer) balance(t *testing.T, key string) int {
	t.Helper()
	r := ts.do(t, "GET", "/v1/billing/balance", key, nil).must(t, 200)
	return int(r.num("creditBalance"))
}

// registerEstablished registers an agent whose account is established for
// community reports: an administrator granted it credits.
func (ts *testServer) registerEstablished(t *testing.T) agent {
	t.Helper()
	a := ts.register(t, "")
	ts.do(t, "POST", "/v1/admin/credits", admin, map[string]any{"developerId": a.DeveloperID, "amount": 1,
		"reason": "established"}).must(t, 200)
	return a
}
