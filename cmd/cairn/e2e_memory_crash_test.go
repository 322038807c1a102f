package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestMemoryCrashMidWrite kills the server with SIGKILL during a burst of
// memory writes, restarts it on the same data dir and checks that every
// acknowledged write is readable with its content, that no memory lost its
// blob, and that every balance equals the sum of its ledger.
func TestMemoryCrashMidWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a subprocess")
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "serve", "--listen", "127.0.0.1:0", "--data-dir", dir,
		"--deposit-mnemonic", testConfig(t, dir).DepositMnemonic, "--admin-token", "admin-test-token",
		"--write-limit-per-agent", "0", "--rate-limit-per-key", "0")
	cmd.Env = append(os.Environ(), "CAIRN_TEST_AS_BINARY=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
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
	go func() {
		for lines.Scan() {
		}
	}()
	base := "http://" + addr
	post := func(path, key string, body any) (int, map[string]any) {
		b, _ := json.Marshal(body)
		req, _ := http.NewRequest("POST", base+path, bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, nil
		}
		defer resp.Body.Close()
		var out map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out
	}
	_, reg := post("/v1/auth/agent-register", "", map[string]any{"name": "crash"})
	key, dev := reg["apiKey"].(string), reg["developerId"].(string)
	if st, _ := post("/v1/admin/credits", "admin-test-token", map[string]any{"developerId": dev, "amount": 1_000_000, "reason": "test"}); st != 200 {
		t.Fatalf("top up: %d", st)
	}

	type acked struct{ id, content string }
	var (
		mu    sync.Mutex
		acks  []acked
		count atomic.Int64
		wg    sync.WaitGroup
	)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				content := fmt.Sprintf("worker %d write %d", w, i)
				st, out := post("/v1/memory", key, map[string]any{"key": fmt.Sprintf("w%d/%d", w, i), "content": content})
				if st == 0 {
					return // the server is gone
				}
				if st == 201 {
					mu.Lock()
					acks = append(acks, acked{out["id"].(string), content})
					mu.Unlock()
					count.Add(1)
				}
			}
		}()
	}
	for count.Load() < 200 {
		time.Sleep(time.Millisecond)
	}
	if err := cmd.Process.Signal(os.Kill); err != nil {
		t.Fatal(err)
	}
	wg.Wait()

	cfg := testConfig(t, dir)
	cfg.RateLimitPerKey, cfg.WriteLimitPerAgent = 0, 0
	ts := startServer(t, cfg)
	for _, a := range acks {
		r := ts.do("GET", "/v1/memory/"+a.id, key, nil).must(t, 200)
		if r.str("content") != a.content {
			t.Fatalf("%s: content %q, want %q", a.id, r.str("content"), a.content)
		}
	}
	// Every stored memory (acknowledged or not) has its content.
	ctx := context.Background()
	n := 0
	cur := ""
	for {
		q := "/v1/memory?limit=100"
		if cur != "" {
			q += "&cursor=" + cur
		}
		r := ts.do("GET", q, key, nil).must(t, 200)
		for _, m := range r.JSON["memories"].([]any) {
			ts.do("GET", "/v1/memory/"+m.(map[string]any)["id"].(string), key, nil).must(t, 200)
			n++
		}
		if r.JSON["hasMore"] != true {
			break
		}
		cur = r.str("nextCursor")
	}
	if n < len(acks) {
		t.Fatalf("%d memories listed, %d acknowledged", n, len(acks))
	}
	d, err := ts.m.store.Developer(ctx, dev)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := ts.m.store.Transactions(ctx, dev, 0, 1_000_000)
	if err != nil {
		t.Fatal(err)
	}
	var sum int64
	for _, e := range entries {
		sum += e.Amount
	}
	if sum != d.Balance {
		t.Fatalf("balance %d, ledger sums to %d", d.Balance, sum)
	}
	t.Logf("%d writes acknowledged before SIGKILL, %d memories stored, balance %d", len(acks), n, d.Balance)
}
