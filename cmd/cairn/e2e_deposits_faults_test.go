package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
)

// TestE2EDepositsNodeFaults claims deposits while the Aptos node (served
// from recorded mainnet answers) fails in the ways a node fails: it closes
// the connection, answers 5xx, or answers slowly while the agent, tired
// of waiting, claims the same transaction again. A failed claim credits
// nothing and tells the agent to try again later; the same claim once the
// node answers credits the deposit once; two claims of one transaction at
// once credit it once. The balance is exactly the sum of the deposits.
func TestE2EDepositsNodeFaults(t *testing.T) {
	node := newFakeAptos(t)
	// While closing, every request's connection is cut (the client's
	// one retry on a reused connection too); while failing, every request
	// gets a 503.
	var closing, failing, slow atomic.Bool
	inner := node.srv.Config.Handler
	faulty := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if closing.Load() {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		}
		if failing.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte(`{"message":"unavailable","error_code":"internal_error"}`))
			return
		}
		if slow.Load() {
			time.Sleep(500 * time.Millisecond)
		}
		inner.ServeHTTP(w, r)
	}))
	t.Cleanup(faulty.Close)
	cfg := testConfig(t, t.TempDir())
	cfg.AptosNodeURL, cfg.CreditsPerAPT = faulty.URL+"/v1", 1000
	ts := startServer(t, cfg)
	a := ts.register(t, "payer")
	deposit := func(hash string) *response {
		return ts.do(t, "POST", "/v1/billing/agent/deposit", a.Key, map[string]any{"txHash": hash})
	}
	start := ts.balance(t, a.Key)
	node.set(txHash(1), faDeposit(t, txHash(1), a.Address, 50_000_000, true))  // 500 credits
	node.set(txHash(2), faDeposit(t, txHash(2), a.Address, 120_000_000, true)) // 1200 credits
	node.set(txHash(3), faDeposit(t, txHash(3), a.Address, 30_000_000, true))  // 300 credits

	// Connections cut, then 5xx answers: nothing credited, try again.
	for _, fault := range []struct {
		name string
		on   *atomic.Bool
	}{{"closed connection", &closing}, {"5xx", &failing}} {
		fault.on.Store(true)
		p := deposit(txHash(1)).problem(t, http.StatusBadGateway, cairn.EUPSTREAM)
		fault.on.Store(false)
		if !strings.Contains(p.str("detail"), "try again") {
			t.Fatalf("%s: the agent is not told to try again: %s", fault.name, p.Body)
		}
		if got := ts.balance(t, a.Key); got != start {
			t.Fatalf("%s: balance %d after a failed claim, want %d", fault.name, got, start)
		}
	}
	// The node answers again: the same claim credits once.
	if r := deposit(txHash(1)).must(t, 201); r.num("creditsAdded") != 500 {
		t.Fatalf("the claim after the faults: %s", r.Body)
	}
	deposit(txHash(1)).problem(t, http.StatusConflict, cairn.EALREADYCREDITED)

	// A slow node, and the agent claiming again before the first answer.
	slow.Store(true)
	var wg sync.WaitGroup
	statuses := make([]int, 4)
	for i := range statuses {
		wg.Go(func() { statuses[i] = deposit(txHash(2)).Status })
	}
	wg.Wait()
	slow.Store(false)
	credited, already := 0, 0
	for _, s := range statuses {
		switch s {
		case 201:
			credited++
		case 409:
			already++
		default:
			t.Fatalf("concurrent claims of one transaction: statuses %v", statuses)
		}
	}
	if credited != 1 || already != len(statuses)-1 {
		t.Fatalf("concurrent claims of one transaction: statuses %v, want one 201", statuses)
	}
	// A fault in the middle of several claims loses none of the others.
	closing.Store(true)
	deposit(txHash(3)).problem(t, http.StatusBadGateway, cairn.EUPSTREAM)
	closing.Store(false)
	if r := deposit(txHash(3)).must(t, 201); r.num("creditsAdded") != 300 {
		t.Fatalf("the claim after the cut: %s", r.Body)
	}
	if got, want := ts.balance(t, a.Key), start+500+1200+300; got != want {
		t.Fatalf("balance %d, want %d: each deposit credited exactly once", got, want)
	}
	sum, deposits := ledgerSum(t, ts, a.Key)
	if int(sum) != start+2000 || len(deposits) != 3 {
		t.Fatalf("ledger: sum %d, %d deposits", sum, len(deposits))
	}
}
