package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
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
	cmd := exec.Command(os.Args[0], "serve", "--listen", "127.0.0.1:0", "--data-dir", dir, "--default-sources=false",
		"--deposit-mnemonic", testConfig(t, dir).DepositMnemonic)
	cmd.Env = append(os.Environ(), "CAIRN_TEST_AS_BINARY=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })

	lines := bufio.NewScanner(stderr)
	addr := ""
	for addr == "" && lines.Scan() {
		var rec map[string]any
		if json.Unmarshal(lines.Bytes(), &rec) == nil && rec["msg"] == "cairn serving" {
			addr, _ = rec["addr"].(string)
		}
	}
	if addr == "" {
		t.Fatal("the process never logged its address")
	}
	resp, err := http.Get("http://" + addr + "/healthz")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("healthz: %v %v", resp, err)
	}
	resp.Body.Close()

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	var rest strings.Builder
	for lines.Scan() {
		rest.WriteString(lines.Text() + "\n")
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v\n%s", err, rest.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no exit after SIGTERM")
	}
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
