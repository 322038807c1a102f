package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

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

// TestE2EPprofDuringStart: the profiles are served while Open still runs
// (a first ingest of a large list takes seconds and is what an operator
// wants to profile), not only once the API serves.
func TestE2EPprofDuringStart(t *testing.T) {
	release := make(chan struct{})
	src := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-release
		_, _ = io.WriteString(w, "0x7f367cc41522ce07553e823bf3be79a889debe1b\n")
	}))
	defer src.Close()
	probe, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := probe.Addr().String()
	probe.Close()
	cfg := testConfig(t, t.TempDir())
	cfg.PprofListen = addr
	cfg.Sources = stringList{"list:ETH=" + src.URL + "/list.txt"}
	m := NewMain(cfg, io.Discard, io.Discard)
	opened := make(chan error, 1)
	go func() { opened <- m.Open(context.Background()) }()
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
		if err := <-opened; err != nil {
			t.Error(err)
		}
		_ = m.Close()
	}()
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/debug/pprof/cmdline")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Fatalf("pprof during start: %d", resp.StatusCode)
			}
			break
		}
		select {
		case err := <-opened:
			t.Fatalf("Open returned (%v) before the profiles were served", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("pprof not served while the first ingest runs: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	select {
	case err := <-opened:
		t.Fatalf("Open returned (%v) while its source was still held", err)
	default:
	}
	close(release)
}
