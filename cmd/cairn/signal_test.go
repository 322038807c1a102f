package main

import (
	"context"
	"net/http"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets the test binary act as the cairn binary when re-executed
// with CAIRN_TEST_AS_BINARY=1, so that signal handling is tested on a real
// process.
func TestMain(m *testing.M) {
	if os.Getenv("CAIRN_TEST_AS_BINARY") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

func TestSignalGracefulShutdown(t *testing.T) {
	dir := t.TempDir()
	p := serveProcess(t, nil, "--listen", "127.0.0.1:0", "--data-dir", dir, "--default-sources=false",
		"--deposit-mnemonic", testConfig(t, dir).DepositMnemonic)
	resp, err := http.Get(p.base + "/healthz")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("healthz: %v %v", resp, err)
	}
	resp.Body.Close()

	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.exited:
		if err := p.cmd.Wait(); err != nil {
			t.Fatalf("exit after SIGTERM: %v\n%s", err, p.logs.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no exit after SIGTERM")
	}
	rest := p.logs
	if !strings.Contains(rest.String(), `"msg":"shutting down"`) {
		t.Fatalf("no shutdown log:\n%s", rest.String())
	}
	// The store was closed cleanly: the same data dir opens again.
	m := NewMain(testConfig(t, dir), nil, &syncBuffer{})
	if err := m.Open(context.Background()); err != nil {
		t.Fatalf("reopen after SIGTERM: %v", err)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
}
