package main

import (
	"strconv"
	"testing"

	"github.com/cairn-dev/cairn"
)

// TestE2EMerkleProofBilling: Merkle proofs are billed as screening. They
// draw on the same free window (10 addresses per hour per developer, shared
// with POST /v1/compliance/screen), then cost 1 credit per address, with
// the same rateLimit object and headers; a 402 charges nothing and keeps no
// free address; a 400 is neither charged nor counted.
func TestE2EMerkleProofBilling(t *testing.T) {
	ts, _ := complianceServer(t)
	a := ts.register(t, "")
	proofPath := "/v1/compliance/merkle-proof?chain=ethereum&address=" + tornado
	batch := func(t *testing.T, key string, n int) *response {
		return ts.do(t, "POST", "/v1/compliance/merkle-proof/batch", key, map[string]any{"addresses": addresses(n)})
	}
	// check compares the rateLimit object and the headers of an answer
	// with the expected free addresses left, billable addresses and balance.
	check := func(t *testing.T, r *response, key string, remaining, billable, balance int) {
		t.Helper()
		rl, ok := r.JSON["rateLimit"].(map[string]any)
		if !ok || rl["freeLimit"] != float64(10) || rl["freeRemaining"] != float64(remaining) ||
			rl["billableAddresses"] != float64(billable) || rl["creditCharged"] != float64(billable) ||
			rl["freeReset"] != r.Header.Get("X-RateLimit-Free-Reset") || r.Header.Get("X-RateLimit-Free-Limit") != "10" ||
			r.Header.Get("X-RateLimit-Free-Remaining") != strconv.Itoa(remaining) ||
			r.Header.Get("X-RateLimit-Billable") != strconv.Itoa(billable) {
			t.Fatalf("want %d free left and %d billable: %v %v", remaining, billable, rl, r.Header)
		}
		if b := ts.balance(t, key); b != balance {
			t.Fatalf("balance %d, want %d", b, balance)
		}
	}

	// The window is shared with screening: 4 screened, 1 proved, 5 in a batch.
	ts.do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": addresses(4)}).must(t, 200)
	r := ts.do(t, "GET", proofPath, a.Key, nil).must(t, 200)
	if r.JSON["listed"] != true {
		t.Fatalf("proof: %s", r.Body)
	}
	check(t, r, a.Key, 5, 0, 100)
	check(t, batch(t, a.Key, 5).must(t, 200), a.Key, 0, 0, 100)

	// Client mistakes are neither charged nor counted (free or paid).
	ts.do(t, "GET", "/v1/compliance/merkle-proof?chain=ethereum&address=zzz", a.Key, nil).problem(t, 400, cairn.EINVALID)
	ts.do(t, "GET", "/v1/compliance/merkle-proof?chain=narnia&address="+tornado, a.Key, nil).problem(t, 400, cairn.EINVALID)
	ts.do(t, "POST", "/v1/compliance/merkle-proof/batch", a.Key, map[string]any{"addresses": []map[string]any{
		{"address": tornado, "chain": "ethereum"}, {"address": tornado, "chain": "narnia"}}}).problem(t, 400, cairn.EINVALID)
	ts.do(t, "POST", "/v1/compliance/merkle-proof/batch", a.Key, map[string]any{"addresses": addresses(101)}).problem(t, 400, cairn.EINVALID)

	// Beyond the window: 1 credit per address, an unlisted one too.
	r = ts.do(t, "GET", "/v1/compliance/merkle-proof?chain=ethereum&address=0x000000000000000000000000000000000000dEaD", a.Key, nil).must(t, 200)
	if r.JSON["listed"] != false {
		t.Fatalf("unlisted: %s", r.Body)
	}
	check(t, r, a.Key, 0, 1, 99)
	// A batch counts every address, an invalid one included (as screening does).
	r = ts.do(t, "POST", "/v1/compliance/merkle-proof/batch", a.Key, map[string]any{"addresses": []map[string]any{
		{"address": tornado, "chain": "ethereum"}, {"address": "nope", "chain": "ethereum"}, {"address": tornado, "chain": "bsc"}}}).must(t, 200)
	if res := r.JSON["results"].([]any); len(res) != 3 || res[1].(map[string]any)["valid"] != false {
		t.Fatalf("batch: %s", r.Body)
	}
	check(t, r, a.Key, 0, 3, 96)
	// Screening after the proofs finds the window used up too.
	s := ts.do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": addresses(1)}).must(t, 200)
	check(t, s, a.Key, 0, 1, 95)

	t.Run("OutOfCredits", func(t *testing.T) {
		p := ts.register(t, "")
		ts.do(t, "POST", "/v1/admin/credits", admin, map[string]any{"developerId": p.DeveloperID, "amount": -100, "reason": "test"}).must(t, 200)
		check(t, batch(t, p.Key, 8).must(t, 200), p.Key, 2, 0, 0)
		// Three addresses with two free ones left: 402, nothing charged,
		// the two free addresses given back.
		r := batch(t, p.Key, 3).problem(t, 402, cairn.EPAYMENT)
		if r.JSON["required"] != float64(1) || r.JSON["available"] != float64(0) {
			t.Fatalf("402: %s", r.Body)
		}
		check(t, ts.do(t, "GET", proofPath, p.Key, nil).must(t, 200), p.Key, 1, 0, 0)
		check(t, ts.do(t, "GET", proofPath, p.Key, nil).must(t, 200), p.Key, 0, 0, 0)
		ts.do(t, "GET", proofPath, p.Key, nil).problem(t, 402, cairn.EPAYMENT)
		if b := ts.balance(t, p.Key); b != 0 {
			t.Fatalf("balance %d after 402s", b)
		}
		// With credits again, a batch of 12 beyond the window costs 12.
		ts.do(t, "POST", "/v1/admin/credits", admin, map[string]any{"developerId": p.DeveloperID, "amount": 12, "reason": "test"}).must(t, 200)
		check(t, batch(t, p.Key, 12).must(t, 200), p.Key, 0, 12, 0)
	})
	t.Run("BatchCount", func(t *testing.T) {
		// A fresh developer's batch of 12: 10 free, 2 billed.
		q := ts.register(t, "")
		r := ts.do(t, "POST", "/v1/compliance/merkle-proof/batch", q.Key, map[string]any{"addresses": addresses(12), "multiproof": true}).must(t, 200)
		if len(r.JSON["results"].([]any)) != 12 || len(r.JSON["multiproof"].(map[string]any)["leaves"].([]any)) != 1 {
			t.Fatalf("batch: %s", r.Body)
		}
		check(t, r, q.Key, 0, 2, 98)
	})
}
