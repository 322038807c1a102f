package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"testing"
)

// process is the test binary run as `cairn serve` (see TestMain), a
// process of its own that a test can kill.
type process struct {
	cmd  *exec.Cmd
	base string      // http://host:port
	logs *syncBuffer // its log lines after "cairn serving"
	// exited is closed when its stderr ends: it exited (then call
	// cmd.Wait), or closed stderr.
	exited chan struct{}
}

// serveProcess starts `cairn serve args...` with env added to the test's
// environment, waits until it serves and returns it; it is killed when
// the test ends.
func serveProcess(t *testing.T, env []string, args ...string) *process {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"serve"}, args...)...)
	cmd.Env = append(append(os.Environ(), "CAIRN_TEST_AS_BINARY=1"), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var p *process
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		if p != nil {
			<-p.exited
		}
		_ = cmd.Wait()
	})
	lines := bufio.NewScanner(stderr)
	lines.Buffer(nil, 1<<20)
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
	p = &process{cmd: cmd, base: "http://" + addr, logs: &syncBuffer{}, exited: make(chan struct{})}
	go func() {
		defer close(p.exited)
		for lines.Scan() {
			_, _ = p.logs.Write(append(lines.Bytes(), '\n'))
		}
	}()
	return p
}

// server is the process as a testServer, for the request helpers.
func (p *process) server() *testServer { return &testServer{base: p.base, logs: p.logs} }
