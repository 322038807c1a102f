package evmtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/testenv"
)

// Node is a ganache of the test's own, which it may stop, start again on
// the same port and chain (its database is kept in a temporary directory)
// and revert to a snapshot, without disturbing the tests that share the
// node of URL. It mines a block only when a transaction arrives (Mine
// mines one on demand), as .ci/run's.
type Node struct {
	tb   testing.TB
	bin  string
	db   string
	port int
	cmd  *exec.Cmd
	out  bytes.Buffer
}

// Own starts a node of the test's own, stopped when the test ends. It
// needs contracts/node_modules (npm ci in contracts/, as .ci/run does):
// without them it skips the test, or fails it with CAIRN_REQUIRE_EVM=1.
func Own(tb testing.TB) *Node {
	tb.Helper()
	bin := ganacheBin()
	if bin == "" {
		testenv.Missing(tb, "CAIRN_REQUIRE_EVM", "contracts/node_modules/.bin/ganache is missing (npm ci in contracts/)")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	n := &Node{tb: tb, bin: bin, db: tb.TempDir(), port: port}
	tb.Cleanup(n.Stop)
	n.Start()
	return n
}

// URL is the node's JSON-RPC endpoint.
func (n *Node) URL() string { return fmt.Sprintf("http://127.0.0.1:%d", n.port) }

// Start starts the node on its port and database, and waits until it
// answers.
func (n *Node) Start() {
	n.tb.Helper()
	n.out.Reset()
	n.cmd = exec.Command(n.bin, "--wallet.deterministic", "--server.host", "127.0.0.1", "--port", fmt.Sprint(n.port),
		"--database.dbPath", n.db, "--logging.quiet")
	n.cmd.Stdout, n.cmd.Stderr = &n.out, &n.out
	if err := n.cmd.Start(); err != nil {
		n.tb.Fatal(err)
	}
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		var id string
		if err := n.call(&id, "eth_chainId"); err == nil {
			return
		}
		if time.Now().After(deadline) {
			n.tb.Fatalf("ganache on port %d did not answer: %s", n.port, n.out.String())
		}
	}
}

// Stop stops the node (its chain is kept for Start).
func (n *Node) Stop() {
	if n.cmd == nil || n.cmd.Process == nil {
		return
	}
	n.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { n.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		n.cmd.Process.Kill()
		<-done
	}
	n.cmd = nil
}

// Mine mines one block.
func (n *Node) Mine() {
	n.tb.Helper()
	var r any
	if err := n.call(&r, "evm_mine"); err != nil {
		n.tb.Fatalf("evm_mine: %v", err)
	}
}

// Snapshot records the chain's state (evm_snapshot) and returns its id.
func (n *Node) Snapshot() string {
	n.tb.Helper()
	var id string
	if err := n.call(&id, "evm_snapshot"); err != nil {
		n.tb.Fatalf("evm_snapshot: %v", err)
	}
	return id
}

// Revert returns the chain to a snapshot (evm_revert): the blocks mined
// since, and their transactions, are gone, as in a reorganisation.
func (n *Node) Revert(id string) {
	n.tb.Helper()
	var ok bool
	if err := n.call(&ok, "evm_revert", id); err != nil || !ok {
		n.tb.Fatalf("evm_revert %s: %v %v", id, ok, err)
	}
}

func (n *Node) call(out any, method string, params ...any) error {
	if params == nil {
		params = []any{}
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	resp, err := http.Post(n.URL(), "application/json", bytes.NewReader(body))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var r struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		return err
	}
	if r.Error != nil {
		return fmt.Errorf("%s: %s", method, r.Error.Message)
	}
	return json.Unmarshal(r.Result, out)
}

// ganacheBin finds contracts/node_modules/.bin/ganache above the working
// directory (a test runs in its package's directory).
func ganacheBin() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			bin := filepath.Join(dir, "contracts", "node_modules", ".bin", "ganache")
			if _, err := os.Stat(bin); err == nil {
				return bin
			}
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
