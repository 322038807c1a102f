package main

import (
	"context"
	"io"
	"net/http"
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

// admin is the admin token of the test servers.
const admin = apitest.AdminToken

func testConfig(t *testing.T, dataDir string) Config {
	cfg := DefaultConfig()
	cfg.Listen = "127.0.0.1:0"
	cfg.DataDir = dataDir
	cfg.AdminToken = apitest.AdminToken
	cfg.DepositMnemonic = apitest.DepositMnemonic
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

// response is a decoded HTTP response (apitest.Response, with the
// lower-case helpers this package's tests use).
type response apitest.Response

func (r *response) str(k string) string { return (*apitest.Response)(r).Str(k) }

func (r *response) num(k string) float64 { return (*apitest.Response)(r).Num(k) }

// must fails the test unless the response has the status.
func (r *response) must(t *testing.T, status int) *response {
	t.Helper()
	(*apitest.Response)(r).Must(t, status)
	return r
}

// problem fails unless the response is a problem document with the code.
func (r *response) problem(t *testing.T, status int, code string) *response {
	t.Helper()
	(*apitest.Response)(r).Problem(t, status, code)
	return r
}

// client is the test client of the server's address.
func (ts *testServer) client() *apitest.Client { return &apitest.Client{URL: ts.base} }

// do sends a request with an optional bearer token and JSON body (a string
// is sent verbatim) and validates the response against the OpenAPI
// document (apitest.Client.Do).
func (ts *testServer) do(t *testing.T, method, path, token string, body any, hdr ...string) *response {
	t.Helper()
	return (*response)(ts.client().Do(t, method, path, token, body, hdr...))
}

// try is do for goroutines other than the test's (apitest.Client.Try).
func (ts *testServer) try(t *testing.T, method, path, token string, body any, hdr ...string) (*response, error) {
	t.Helper()
	r, err := ts.client().Try(t, method, path, token, body, hdr...)
	return (*response)(r), err
}

// send sends a prepared request and validates the response against the
// OpenAPI document.
func (ts *testServer) send(t *testing.T, req *http.Request) *response {
	t.Helper()
	return (*response)(ts.client().Send(t, req))
}

// roundTrip is send returning the transport error (see try).
func (ts *testServer) roundTrip(t *testing.T, req *http.Request) (*response, error) {
	t.Helper()
	r, err := ts.client().RoundTrip(t, req)
	return (*response)(r), err
}

// race sends n requests at once (apitest.Race).
func race(t *testing.T, n int, send func(i int) (*response, error)) []*response {
	t.Helper()
	rs := apitest.Race(t, n, func(i int) (*apitest.Response, error) {
		r, err := send(i)
		return (*apitest.Response)(r), err
	})
	out := make([]*response, n)
	for i, r := range rs {
		out[i] = (*response)(r)
	}
	return out
}

// agent is a registered agent as the tests see it.
type agent = apitest.Agent

func (ts *testServer) register(t *testing.T, name string) agent {
	t.Helper()
	return ts.client().Register(t, name)
}

func (ts *testServer) balance(t *testing.T, key string) int {
	t.Helper()
	return ts.client().Balance(t, key)
}

// registerEstablished registers an agent whose account is established for
// community reports: an administrator granted it credits.
func (ts *testServer) registerEstablished(t *testing.T) agent {
	t.Helper()
	return ts.client().RegisterEstablished(t)
}

// pngBytes is a real 1x1 PNG.
var pngBytes = apitest.PNG

type part struct {
	name, filename, contentType string
	body                        []byte
}

// parts are the parts as apitest sends them.
func apiParts(parts []part) []apitest.Part {
	out := make([]apitest.Part, len(parts))
	for i, p := range parts {
		out[i] = apitest.Part{Name: p.name, Filename: p.filename, ContentType: p.contentType, Body: p.body}
	}
	return out
}

// upload posts a multipart body to /v1/media/upload.
func (ts *testServer) upload(t *testing.T, key string, parts ...part) *response {
	t.Helper()
	return (*response)(ts.client().Upload(t, key, apiParts(parts)...))
}

// uploadTo posts a multipart body to path.
func (ts *testServer) uploadTo(t *testing.T, path, key string, parts ...part) *response {
	t.Helper()
	return (*response)(ts.client().UploadTo(t, path, key, apiParts(parts)...))
}

func (ts *testServer) stream(t *testing.T, method, key, id string, hdr ...string) *response {
	t.Helper()
	return (*response)(ts.client().Stream(t, method, key, id, hdr...))
}

func field(name, value string) part { return part{name: name, body: []byte(value)} }
