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
