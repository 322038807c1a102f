package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestMemoryCrashMidWrite kills the server with SIGKILL during a burst of
// memory writes, restarts it on the same data dir and checks that every
// acknowledged write is readable with its content, that no memory lost its
// blob, that every balance equals the sum of its ledger, and that the
// charges of the writes the crash cut short were refunded at start: the
// balance pays for exactly the memories stored. Every write carries an
// Idempotency-Key; retrying the unanswered ones after the restart answers
// each once, and the balance then pays for exactly the acknowledged writes.
func TestMemoryCrashMidWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a subprocess")
	}
	dir := t.TempDir()
	proc := serveProcess(t, nil, "--listen", "127.0.0.1:0", "--data-dir", dir, "--default-sources=false",
		"--deposit-mnemonic", testConfig(t, dir).DepositMnemonic, "--admin-token", "admin-test-token-0123456789abcdef",
		"--write-limit-per-agent", "0", "--rate-limit-per-key", "0")
	base := proc.base
	post := func(path, key string, body any, hdr ...string) (int, map[string]any) {
		b, _ := json.Marshal(body)
		req, _ := http.NewRequest("POST", base+path, bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
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
	if st, _ := post("/v1/admin/credits", "admin-test-token-0123456789abcdef", map[string]any{"developerId": dev, "amount": 1_000_000, "reason": "test"}); st != 200 {
		t.Fatalf("top up: %d", st)
	}
	const start, cost = 100 + 1_000_000, 5

	type acked struct{ id, content string }
	type unanswered struct {
		idem string
		body map[string]any
	}
	var (
		mu      sync.Mutex
		acks    []acked
		pending []unanswered
		count   atomic.Int64
		wg      sync.WaitGroup
	)
	for w := 0; w < 8; w++ {
		wg.Go(func() {
			for i := 0; ; i++ {
				content := fmt.Sprintf("worker %d write %d", w, i)
				body := map[string]any{"key": fmt.Sprintf("w%d/%d", w, i), "content": content}
				idem := fmt.Sprintf("idem-w%d-%d", w, i)
				st, out := post("/v1/memory", key, body, "Idempotency-Key", idem)
				if st == 0 {
					mu.Lock()
					pending = append(pending, unanswered{idem, body})
					mu.Unlock()
					return // the server is gone
				}
				if st == 201 {
					mu.Lock()
					acks = append(acks, acked{out["id"].(string), content})
					mu.Unlock()
					count.Add(1)
				}
			}
		})
	}
	for count.Load() < 200 {
		time.Sleep(time.Millisecond)
	}
	if err := proc.cmd.Process.Signal(os.Kill); err != nil {
		t.Fatal(err)
	}
	wg.Wait()

	cfg := testConfig(t, dir)
	cfg.RateLimitPerKey, cfg.WriteLimitPerAgent = 0, 0
	ts := startServer(t, cfg)
	ctx := context.Background()
	balance := func() int64 {
		t.Helper()
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
		return d.Balance
	}
	// Read before any read is paid for; checked once the memories stored
	// are counted.
	restarted := balance()
	refunds := strings.Count(ts.logs.String(), "refunded the charge of an interrupted write")
	answered := len(acks)
	// Retry every unanswered write with its Idempotency-Key: a stored one
	// replays its answer for free, a lost one is written (and paid) now.
	// The balance then pays for exactly the acknowledged writes.
	replayed := 0
	for _, p := range pending {
		r := ts.do(t, "POST", "/v1/memory", key, p.body, "Idempotency-Key", p.idem).must(t, 201)
		if r.Header.Get("Idempotent-Replayed") == "true" {
			replayed++
		}
		acks = append(acks, acked{r.str("id"), p.body["content"].(string)})
	}
	if got, want := balance(), int64(start-cost*len(acks)); got != want {
		t.Fatalf("balance after the retries %d, want %d (%d acknowledged writes)", got, want, len(acks))
	}
	for _, a := range acks {
		r := ts.do(t, "GET", "/v1/memory/"+a.id, key, nil).must(t, 200)
		if r.str("content") != a.content {
			t.Fatalf("%s: content %q, want %q", a.id, r.str("content"), a.content)
		}
	}
	// Every stored memory (acknowledged or not) has its content.
	n := 0
	cur := ""
	for {
		q := "/v1/memory?limit=100"
		if cur != "" {
			q += "&cursor=" + cur
		}
		r := ts.do(t, "GET", q, key, nil).must(t, 200)
		for _, m := range r.JSON["memories"].([]any) {
			ts.do(t, "GET", "/v1/memory/"+m.(map[string]any)["id"].(string), key, nil).must(t, 200)
			n++
		}
		if r.JSON["hasMore"] != true {
			break
		}
		cur = r.str("nextCursor")
	}
	if n != len(acks) {
		t.Fatalf("%d memories listed, %d acknowledged after the retries", n, len(acks))
	}
	// The charges of the writes the crash cut short were refunded at
	// start: the balance then paid for the memories stored at the crash.
	stored := n - (len(pending) - replayed)
	if want := int64(start - cost*stored); restarted != want {
		t.Fatalf("balance after restart %d, want %d (%d memories stored at the crash, %d acknowledged)", restarted, want, stored, answered)
	}
	balance()
	t.Logf("SIGKILL with %d writes acknowledged and %d unanswered: %d stored, %d charges refunded at start, %d replayed on retry",
		answered, len(pending), stored, refunds, replayed)
}
