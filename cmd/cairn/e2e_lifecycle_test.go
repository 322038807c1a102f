package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestE2EHealthMetricsRequestIDs(t *testing.T) {
	ts := startServer(t, testConfig(t, t.TempDir()))
	if r := ts.do(t, "GET", "/healthz", "", nil).must(t, 200); r.str("status") != "ok" {
		t.Fatalf("healthz: %s", r.Body)
	}
	if r := ts.do(t, "GET", "/readyz", "", nil).must(t, 200); r.str("status") != "ready" {
		t.Fatalf("readyz: %s", r.Body)
	}
	r := ts.do(t, "GET", "/v1/billing/pricing", "", nil, "X-Request-Id", "trace-abc.123")
	if r.Header.Get("X-Request-Id") != "trace-abc.123" {
		t.Fatalf("caller's request id not kept: %q", r.Header.Get("X-Request-Id"))
	}
	r = ts.do(t, "GET", "/v1/billing/pricing", "", nil, "X-Request-Id", "bad id\twith tab")
	if id := r.Header.Get("X-Request-Id"); len(id) != 36 {
		t.Fatalf("unsafe request id not replaced: %q", id)
	}
	a := ts.register(t, "")
	ts.do(t, "POST", "/v1/agents", a.Key, nil).must(t, 201)

	m := ts.do(t, "GET", "/metrics", admin, nil).must(t, 200)
	for _, want := range []string{
		`cairn_http_requests_total{method="GET",route="/v1/billing/pricing",status="200"} 2`,
		`cairn_credits_charged_total{operation="agent.create"} 10`,
		`cairn_http_request_duration_seconds_bucket{method="POST",route="/v1/agents",status="201",le=`,
	} {
		if !strings.Contains(string(m.Body), want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	// Every request log line carries the request id.
	found := false
	for _, line := range strings.Split(ts.logs.String(), "\n") {
		var rec map[string]any
		if json.Unmarshal([]byte(line), &rec) != nil || rec["msg"] != "request" {
			continue
		}
		if rec["request_id"] == nil || rec["request_id"] == "" {
			t.Fatalf("log line without request id: %s", line)
		}
		found = found || rec["request_id"] == "trace-abc.123"
	}
	if !found {
		t.Fatal("no request log line for the traced request")
	}
}

func TestE2ERestartKeepsData(t *testing.T) {
	dir := t.TempDir()
	cfg := testConfig(t, dir)
	cfg.DepositMnemonic = "" // generated on first start, kept in the data dir
	ts := startServer(t, cfg)
	a := ts.register(t, "durable")
	ts.do(t, "POST", "/v1/agents", a.Key, nil).must(t, 201)
	ts.do(t, "PUT", "/v1/admin/pricing", admin, map[string]any{"operationCosts": map[string]int{"search": 3}}).must(t, 200)
	ts.stop()

	ts2 := startServer(t, cfg)
	r := ts2.do(t, "GET", "/v1/agents/self", a.Key, nil).must(t, 200)
	if r.str("aptosAddress") != a.Address {
		t.Fatalf("deposit address changed across restart: %s vs %s", r.str("aptosAddress"), a.Address)
	}
	if b := ts2.balance(t, a.Key); b != 90 {
		t.Fatalf("balance %d after restart, want 90", b)
	}
	costs := ts2.do(t, "GET", "/v1/billing/pricing", "", nil).JSON["operationCosts"].(map[string]any)
	if costs["search"] != float64(3) {
		t.Fatalf("pricing not persisted: %v", costs)
	}
	b := ts2.register(t, "after")
	if b.Address == a.Address {
		t.Fatal("deposit index reused after restart")
	}
}

// TestE2EGracefulShutdown starts a request, begins shutdown while its body
// is still arriving, and checks the request completes.
func TestE2EGracefulShutdown(t *testing.T) {
	ts := startServer(t, testConfig(t, t.TempDir()))
	conn, err := net.Dial("tcp", strings.TrimPrefix(ts.base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := `{"name":"in-flight"}`
	fmt.Fprintf(conn, "POST /v1/auth/agent-register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body[:5])
	time.Sleep(100 * time.Millisecond) // the server is now reading the body

	stopped := make(chan struct{})
	go func() { ts.stop(); close(stopped) }()
	time.Sleep(100 * time.Millisecond)
	// New connections are refused once shutdown started.
	if c, err := net.DialTimeout("tcp", strings.TrimPrefix(ts.base, "http://"), time.Second); err == nil {
		c.Close()
		t.Error("listener still accepting during shutdown")
	}
	if _, err := io.WriteString(conn, body[5:]); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("in-flight request lost: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != 201 {
		t.Fatalf("in-flight request status %d", resp.StatusCode)
	}
	select {
	case <-stopped:
	case <-time.After(15 * time.Second):
		t.Fatal("shutdown did not finish")
	}
}

func TestServeFlagsAndEnv(t *testing.T) {
	env := map[string]string{"CAIRN_LISTEN": "127.0.0.1:0", "CAIRN_RATE_LIMIT_PER_KEY": "7", "CAIRN_TTL_SWEEP_INTERVAL": "5s"}
	getenv := func(k string) string { return env[k] }
	cfg := DefaultConfig()
	fs := newServeFlagSet(&cfg)
	if err := parseWithEnv(fs, []string{"--rate-limit-per-key", "9", "--data-dir", "/tmp/x"}, getenv); err != nil {
		t.Fatal(err)
	}
	if cfg.Listen != "127.0.0.1:0" || cfg.RateLimitPerKey != 9 || cfg.TTLSweepInterval != 5*time.Second || cfg.DataDir != "/tmp/x" {
		t.Fatalf("config %+v", cfg)
	}
	cfg = DefaultConfig()
	env["CAIRN_WRITE_LIMIT_PER_AGENT"] = "many"
	if err := parseWithEnv(newServeFlagSet(&cfg), nil, getenv); err == nil || !strings.Contains(err.Error(), "CAIRN_WRITE_LIMIT_PER_AGENT") {
		t.Fatalf("bad env value accepted: %v", err)
	}
	if EnvName("ttl-sweep-interval") != "CAIRN_TTL_SWEEP_INTERVAL" {
		t.Fatal(EnvName("ttl-sweep-interval"))
	}
}

func TestRunUsage(t *testing.T) {
	var out, errOut strings.Builder
	if Run(context.Background(), nil, &out, &errOut, func(string) string { return "" }) != 2 ||
		Run(context.Background(), []string{"bogus"}, &out, &errOut, func(string) string { return "" }) != 2 ||
		Run(context.Background(), []string{"serve", "--nope"}, &out, &errOut, func(string) string { return "" }) != 2 {
		t.Fatal("usage errors must exit 2")
	}
}

func TestE2ETTLSweep(t *testing.T) {
	cfg := testConfig(t, t.TempDir())
	cfg.TTLSweepInterval = 0 // the test runs the sweep itself
	clock := cairn.NewManualClock(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC))
	ts := startServer(t, cfg, func(m *Main) { m.Clock = clock })
	ctx := context.Background()
	for name, ttl := range map[string]time.Duration{"memory/semantic/a/v1": time.Hour, "memory/semantic/b/v1": 48 * time.Hour} {
		if _, err := ts.m.blobs.Put(ctx, name, strings.NewReader("x"), blob.PutOptions{ExpiresAt: clock.Now().Add(ttl)}); err != nil {
			t.Fatal(err)
		}
	}
	clock.Advance(2 * time.Hour)
	ts.m.sweepOnce(ctx)
	if n, err := ts.m.blobs.DeleteExpired(ctx, clock.Now()); err != nil || n != 0 {
		t.Fatalf("sweep left %d expired blobs (%v)", n, err)
	}
	if _, err := ts.m.blobs.Stat(ctx, "memory/semantic/b/v1"); err != nil {
		t.Fatalf("live blob swept: %v", err)
	}
}
