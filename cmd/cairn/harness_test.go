package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/api/apitest"
)

// testServer is the real service, started by Main on 127.0.0.1:0 over a
// data dir, exactly as `cairn serve` starts it.
type testServer struct {
	t    *testing.T
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
	ts := &testServer{t: t, m: m, base: "http://" + m.Addr(), logs: logs}
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
func (ts *testServer) do(method, path, token string, body any, hdr ...string) *response {
	ts.t.Helper()
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
			ts.t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, ts.base+path, rd)
	if err != nil {
		ts.t.Fatal(err)
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
	return ts.send(req)
}

// send sends a prepared request and validates the response against the
// OpenAPI document.
func (ts *testServer) send(req *http.Request) *response {
	ts.t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		ts.t.Fatalf("%s %s: %v", req.Method, req.URL.Path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		ts.t.Fatal(err)
	}
	r := &response{Status: resp.StatusCode, Header: resp.Header, Body: raw}
	if len(raw) > 0 && (strings.Contains(resp.Header.Get("Content-Type"), "json")) {
		_ = json.Unmarshal(raw, &r.JSON)
	}
	validateAgainstDocument(ts.t, req, resp, raw)
	return r
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

func (ts *testServer) register(name string) agent {
	ts.t.Helper()
	var body any
	if name != "" {
		body = map[string]any{"name": name}
	}
	r := ts.do("POST", "/v1/auth/agent-register", "", body).must(ts.t, 201)
	return agent{ID: r.str("agentId"), DeveloperID: r.str("developerId"), Key: r.str("apiKey"),
		Secret: r.str("rotationSecret"), Address: r.str("aptosAddress")}
}

func (ts *testServer) balance(key string) int {
	ts.t.Helper()
	r := ts.do("GET", "/v1/billing/balance", key, nil).must(ts.t, 200)
	return int(r.num("creditBalance"))
}

// registerEstablished registers an agent whose account is established for
// community reports: an administrator granted it credits.
func (ts *testServer) registerEstablished() agent {
	ts.t.Helper()
	a := ts.register("")
	ts.do("POST", "/v1/admin/credits", admin, map[string]any{"developerId": a.DeveloperID, "amount": 1,
		"reason": "established"}).must(ts.t, 200)
	return a
}

// postConcurrent posts a JSON body with the key and returns the status and
// body; unlike do, it may run in several goroutines at once (it never
// fails the test itself).
func (ts *testServer) postConcurrent(key, path, body string) (int, []byte, error) {
	req, err := http.NewRequest("POST", ts.base+path, strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	return resp.StatusCode, raw, err
}
