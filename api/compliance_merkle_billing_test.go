package api_test

import (
	"strconv"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
)

// TestE2EMerkleProofBilling: Merkle proofs are billed as screening. They
// draw on the same free window (10 addresses per hour per developer, shared
// with POST /v1/compliance/screen), then cost 1 credit per address, with
// the same rateLimit object and headers; a 402 charges nothing and keeps no
// free address; a 400 is neither charged nor counted.
func TestE2EMerkleProofBilling(t *testing.T) {
	ts, a := screenAgent(t)
	proofPath := "/v1/compliance/merkle-proof?chain=ethereum&address=" + apitest.Tornado
	batch := func(t *testing.T, key string, n int) *apitest.Response {
		return ts.Do(t, "POST", "/v1/compliance/merkle-proof/batch", key, map[string]any{"addresses": apitest.Addresses(n)})
	}
	// check compares the rateLimit object and the headers of an answer
	// with the expected free addresses left, billable addresses and balance.
	check := func(t *testing.T, r *apitest.Response, key string, remaining, billable, balance int) {
		t.Helper()
		rl, ok := r.JSON["rateLimit"].(map[string]any)
		if !ok || rl["freeLimit"] != float64(10) || rl["freeRemaining"] != float64(remaining) ||
			rl["billableAddresses"] != float64(billable) || rl["creditCharged"] != float64(billable) ||
			rl["freeReset"] != r.Header.Get("X-RateLimit-Free-Reset") || r.Header.Get("X-RateLimit-Free-Limit") != "10" ||
			r.Header.Get("X-RateLimit-Free-Remaining") != strconv.Itoa(remaining) ||
			r.Header.Get("X-RateLimit-Billable") != strconv.Itoa(billable) {
			t.Fatalf("want %d free left and %d billable: %v %v", remaining, billable, rl, r.Header)
		}
		if b := ts.Balance(t, key); b != balance {
			t.Fatalf("balance %d, want %d", b, balance)
		}
	}

	// The window is shared with screening: 4 screened, 1 proved, 5 in a batch.
	ts.Do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": apitest.Addresses(4)}).Must(t, 200)
	r := ts.Do(t, "GET", proofPath, a.Key, nil).Must(t, 200)
	if r.JSON["listed"] != true {
		t.Fatalf("proof: %s", r.Body)
	}
	check(t, r, a.Key, 5, 0, 100)
	check(t, batch(t, a.Key, 5).Must(t, 200), a.Key, 0, 0, 100)

	// Client mistakes are neither charged nor counted (free or paid).
	ts.Do(t, "GET", "/v1/compliance/merkle-proof?chain=ethereum&address=zzz", a.Key, nil).Problem(t, 400, cairn.EINVALID)
	ts.Do(t, "GET", "/v1/compliance/merkle-proof?chain=narnia&address="+apitest.Tornado, a.Key, nil).Problem(t, 400, cairn.EINVALID)
	ts.Do(t, "POST", "/v1/compliance/merkle-proof/batch", a.Key, map[string]any{"addresses": []map[string]any{
		{"address": apitest.Tornado, "chain": "ethereum"}, {"address": apitest.Tornado, "chain": "narnia"}}}).Problem(t, 400, cairn.EINVALID)
	ts.Do(t, "POST", "/v1/compliance/merkle-proof/batch", a.Key, map[string]any{"addresses": apitest.Addresses(101)}).Problem(t, 400, cairn.EINVALID)

	// Beyond the window: 1 credit per address, an unlisted one too.
	r = ts.Do(t, "GET", "/v1/compliance/merkle-proof?chain=ethereum&address=0x000000000000000000000000000000000000dEaD", a.Key, nil).Must(t, 200)
	if r.JSON["listed"] != false {
		t.Fatalf("unlisted: %s", r.Body)
	}
	check(t, r, a.Key, 0, 1, 99)
	// A batch counts every address, an invalid one included (as screening does).
	r = ts.Do(t, "POST", "/v1/compliance/merkle-proof/batch", a.Key, map[string]any{"addresses": []map[string]any{
		{"address": apitest.Tornado, "chain": "ethereum"}, {"address": "nope", "chain": "ethereum"}, {"address": apitest.Tornado, "chain": "bsc"}}}).Must(t, 200)
	if res := r.JSON["results"].([]any); len(res) != 3 || res[1].(map[string]any)["valid"] != false {
		t.Fatalf("batch: %s", r.Body)
	}
	check(t, r, a.Key, 0, 3, 96)
	// Screening after the proofs finds the window used up too.
	s := ts.Do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": apitest.Addresses(1)}).Must(t, 200)
	check(t, s, a.Key, 0, 1, 95)

	t.Run("OutOfCredits", func(t *testing.T) {
		p := ts.Register(t, "")
		ts.Do(t, "POST", "/v1/admin/credits", apitest.AdminToken, map[string]any{"developerId": p.DeveloperID, "amount": -100, "reason": "test"}).Must(t, 200)
		check(t, batch(t, p.Key, 8).Must(t, 200), p.Key, 2, 0, 0)
		// Three addresses with two free ones left: 402, nothing charged,
		// the two free addresses given back.
		r := batch(t, p.Key, 3).Problem(t, 402, cairn.EPAYMENT)
		if r.JSON["required"] != float64(1) || r.JSON["available"] != float64(0) {
			t.Fatalf("402: %s", r.Body)
		}
		check(t, ts.Do(t, "GET", proofPath, p.Key, nil).Must(t, 200), p.Key, 1, 0, 0)
		check(t, ts.Do(t, "GET", proofPath, p.Key, nil).Must(t, 200), p.Key, 0, 0, 0)
		ts.Do(t, "GET", proofPath, p.Key, nil).Problem(t, 402, cairn.EPAYMENT)
		if b := ts.Balance(t, p.Key); b != 0 {
			t.Fatalf("balance %d after 402s", b)
		}
		// With credits again, a batch of 12 beyond the window costs 12.
		ts.Do(t, "POST", "/v1/admin/credits", apitest.AdminToken, map[string]any{"developerId": p.DeveloperID, "amount": 12, "reason": "test"}).Must(t, 200)
		check(t, batch(t, p.Key, 12).Must(t, 200), p.Key, 0, 12, 0)
	})
	t.Run("BatchCount", func(t *testing.T) {
		// A fresh developer's batch of 12: 10 free, 2 billed.
		q := ts.Register(t, "")
		r := ts.Do(t, "POST", "/v1/compliance/merkle-proof/batch", q.Key, map[string]any{"addresses": apitest.Addresses(12), "multiproof": true}).Must(t, 200)
		if len(r.JSON["results"].([]any)) != 12 || len(r.JSON["multiproof"].(map[string]any)["leaves"].([]any)) != 1 {
			t.Fatalf("batch: %s", r.Body)
		}
		check(t, r, q.Key, 0, 2, 98)
	})
}
