package main

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
)

// TestE2EMetricsNotPublic: the metrics show credit totals; on the API
// listener they need the admin token, and --metrics-listen serves them
// without one on an address of its own that serves nothing else.
func TestE2EMetricsNotPublic(t *testing.T) {
	cfg := testConfig(t, t.TempDir())
	cfg.MetricsListen = "127.0.0.1:0"
	ts := startServer(t, cfg)
	ts.do(t, "GET", "/metrics", "", nil).problem(t, 401, cairn.EUNAUTHORIZED)
	ts.do(t, "GET", "/metrics", "not-the-admin-token", nil).problem(t, 401, cairn.EUNAUTHORIZED)
	a := ts.register(t, "")
	ts.do(t, "POST", "/v1/agents", a.Key, nil).must(t, 201)
	if m := ts.do(t, "GET", "/metrics", admin, nil).must(t, 200); !strings.Contains(string(m.Body), `cairn_credits_charged_total{operation="agent.create"} 10`) {
		t.Fatal("metrics with the admin token lack the charge")
	}
	get := func(path string) (int, string) {
		resp, err := http.Get("http://" + ts.m.MetricsAddr() + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if st, body := get("/metrics"); st != 200 || !strings.Contains(body, `cairn_credits_charged_total{operation="agent.create"} 10`) {
		t.Fatalf("--metrics-listen /metrics: %d", st)
	}
	if st, _ := get("/v1/billing/pricing"); st != 404 {
		t.Fatalf("--metrics-listen serves the API: %d", st)
	}
}

// TestE2EPprofListen: --pprof-listen serves the Go profiles on an address of
// its own; the API listener does not serve them.
func TestE2EPprofListen(t *testing.T) {
	cfg := testConfig(t, t.TempDir())
	cfg.PprofListen = "127.0.0.1:0"
	ts := startServer(t, cfg)
	get := func(url string) (int, string) {
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	side := "http://" + ts.m.PprofAddr()
	if st, body := get(side + "/debug/pprof/"); st != 200 || !strings.Contains(body, "goroutine") {
		t.Fatalf("--pprof-listen index: %d %.200s", st, body)
	}
	if st, body := get(side + "/debug/pprof/heap?debug=1"); st != 200 || !strings.Contains(body, "heap profile") {
		t.Fatalf("--pprof-listen heap: %d %.200s", st, body)
	}
	if st, _ := get(side + "/v1/billing/pricing"); st != 404 {
		t.Fatalf("--pprof-listen serves the API: %d", st)
	}
	if st, _ := get(ts.base + "/debug/pprof/"); st != 404 {
		t.Fatalf("the API listener serves pprof: %d", st)
	}
	if ts.m.MetricsAddr() != "" {
		t.Fatal("--metrics-listen is on without the flag")
	}
}
