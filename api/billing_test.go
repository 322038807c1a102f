package api_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/internal/wiring"
)

func TestE2EPricing(t *testing.T) {
	ts := apitest.NewServer(t)
	r := ts.Do(t, "GET", "/v1/billing/pricing", "", nil).Must(t, 200)
	costs, _ := r.JSON["operationCosts"].(map[string]any)
	want := map[string]float64{"memory.write": 5, "memory.read": 1, "memory.update": 5, "memory.delete": 2,
		"media.upload": 5, "media.stream": 1, "media.delete": 2, "agent.create": 10, "bulk.write": 5, "search": 1, "compliance.watch": 1}
	if len(costs) != len(want) || r.Num("creditPriceUsd") != 0.01 || r.Str("note") == "" {
		t.Fatalf("pricing: %s", r.Body)
	}
	for op, c := range want {
		if costs[op] != c {
			t.Fatalf("cost of %s = %v, want %v", op, costs[op], c)
		}
	}
	t.Run("ErrUnknownOperation", func(t *testing.T) {
		ts.Do(t, "PUT", "/v1/admin/pricing", apitest.AdminToken, map[string]any{"operationCosts": map[string]int{"teleport": 1}}).Problem(t, 400, cairn.EINVALID)
		ts.Do(t, "PUT", "/v1/admin/pricing", apitest.AdminToken, map[string]any{"operationCosts": map[string]int{"search": -1}}).Problem(t, 400, cairn.EINVALID)
	})
	t.Run("LiveChange", func(t *testing.T) {
		a := ts.Register(t, "")
		r := ts.Do(t, "PUT", "/v1/admin/pricing", apitest.AdminToken, map[string]any{"operationCosts": map[string]int{"agent.create": 30}}).Must(t, 200)
		if c, _ := r.JSON["operationCosts"].(map[string]any); c["agent.create"] != float64(30) || c["search"] != float64(1) {
			t.Fatalf("set pricing: %s", r.Body)
		}
		ts.Do(t, "POST", "/v1/agents", a.Key, map[string]any{"name": "child"}).Must(t, 201)
		if b := ts.Balance(t, a.Key); b != 70 {
			t.Fatalf("balance %d after a 30-credit agent.create, want 70", b)
		}
	})
}

// TestE2EPaymentRequiredAndRefunds: each subtest's agent starts with the
// 100 starter credits.
func TestE2EPaymentRequiredAndRefunds(t *testing.T) {
	ts := apitest.NewServer(t)

	t.Run("RefundOn400", func(t *testing.T) {
		a := ts.Register(t, "payer")
		ts.Do(t, "POST", "/v1/agents", a.Key, map[string]any{"name": strings.Repeat("n", 200)}).Problem(t, 400, cairn.EINVALID)
		if b := ts.Balance(t, a.Key); b != 100 {
			t.Fatalf("balance %d after a refunded 400, want 100", b)
		}
		r := ts.Do(t, "GET", "/v1/billing/transactions?limit=2", a.Key, nil).Must(t, 200)
		txs, _ := r.JSON["transactions"].([]any)
		if len(txs) != 2 {
			t.Fatalf("transactions: %s", r.Body)
		}
		refund, charge := txs[0].(map[string]any), txs[1].(map[string]any)
		if refund["kind"] != "refund" || refund["amount"] != float64(10) || refund["refId"] != charge["id"] ||
			charge["kind"] != "charge" || charge["amount"] != float64(-10) || charge["operation"] != "agent.create" ||
			charge["balanceAfter"] != float64(90) || refund["balanceAfter"] != float64(100) || charge["requestId"] == "" {
			t.Fatalf("refund entries: %s", r.Body)
		}
	})
	t.Run("ChildSpendsParentBalance", func(t *testing.T) {
		a := ts.Register(t, "payer")
		r := ts.Do(t, "POST", "/v1/agents", a.Key, map[string]any{"name": "kid"}).Must(t, 201)
		if r.Str("developerId") != a.DeveloperID || r.Num("creditBalance") != 90 || r.Str("aptosAddress") == a.Address {
			t.Fatalf("child: %s", r.Body)
		}
		kid := r.Str("apiKey")
		ts.Do(t, "POST", "/v1/agents", kid, nil).Must(t, 201)
		if ts.Balance(t, a.Key) != 80 || ts.Balance(t, kid) != 80 {
			t.Fatal("parent and child do not share one balance")
		}
	})
	t.Run("Err402", func(t *testing.T) {
		a := ts.Register(t, "payer")
		ts.Do(t, "PUT", "/v1/admin/pricing", apitest.AdminToken, map[string]any{"operationCosts": map[string]int{"agent.create": 101}}).Must(t, 200)
		defer func() {
			ts.Do(t, "PUT", "/v1/admin/pricing", apitest.AdminToken, map[string]any{"operationCosts": map[string]int{"agent.create": 10}}).Must(t, 200)
		}()
		r := ts.Do(t, "POST", "/v1/agents", a.Key, nil).Problem(t, 402, cairn.EPAYMENT)
		if r.Num("required") != 101 || r.Num("available") != 100 {
			t.Fatalf("402 body: %s", r.Body)
		}
		if b := ts.Balance(t, a.Key); b != 100 {
			t.Fatalf("balance %d after 402", b)
		}
	})
	t.Run("AdminCredits", func(t *testing.T) {
		a := ts.Register(t, "payer")
		ts.Do(t, "POST", "/v1/admin/credits", apitest.AdminToken, map[string]any{"developerId": a.DeveloperID, "amount": 20}).Problem(t, 400, cairn.EINVALID)
		ts.Do(t, "POST", "/v1/admin/credits", apitest.AdminToken, map[string]any{"developerId": cairn.NewID(), "amount": 20, "reason": "x"}).Problem(t, 404, cairn.ENOTFOUND)
		r := ts.Do(t, "POST", "/v1/admin/credits", apitest.AdminToken, map[string]any{"developerId": a.DeveloperID, "amount": 20, "reason": "support"}).Must(t, 200)
		if r.Num("creditBalance") != 120 {
			t.Fatalf("grant: %s", r.Body)
		}
		ts.Do(t, "POST", "/v1/admin/credits", apitest.AdminToken, map[string]any{"developerId": a.DeveloperID, "amount": -121, "reason": "clawback"}).Problem(t, 409, cairn.ECONFLICT)
		ts.Do(t, "POST", "/v1/agents", a.Key, nil).Must(t, 201)
		if b := ts.Balance(t, a.Key); b != 110 {
			t.Fatalf("balance %d, want 110", b)
		}
	})
}

func TestE2ERateLimits(t *testing.T) {
	ts := apitest.NewServer(t, func(p *wiring.Parts) {
		p.Limits.RequestsPerKey = 6
		p.Limits.WritesPerAgent = 2
	})
	a := ts.Register(t, "")

	// Two writes pass, the third is refused and not charged.
	ts.Do(t, "POST", "/v1/agents", a.Key, nil).Must(t, 201)
	ts.Do(t, "POST", "/v1/agents", a.Key, nil).Must(t, 201)
	r := ts.Do(t, "POST", "/v1/agents", a.Key, nil).Problem(t, 429, cairn.ERATELIMIT)
	if r.Header.Get("Retry-After") != "30" || !strings.HasPrefix(r.Header.Get("RateLimit"), `"writes";r=0;t=`) {
		t.Fatalf("write 429 headers: %v", r.Header)
	}
	r = ts.Do(t, "GET", "/v1/billing/balance", a.Key, nil).Must(t, 200) // 4th request on this key
	if r.Num("creditBalance") != 80 {
		t.Fatalf("balance %v: the rate-limited request was charged", r.Num("creditBalance"))
	}
	if !strings.Contains(r.Header.Get("RateLimit-Policy"), `"requests";q=6;w=60`) || !strings.HasPrefix(r.Header.Get("RateLimit"), `"requests";r=2;`) {
		t.Fatalf("headers: %v", r.Header)
	}
	ts.Do(t, "GET", "/v1/agents/self", a.Key, nil).Must(t, 200)
	ts.Do(t, "GET", "/v1/agents/self", a.Key, nil).Must(t, 200)
	r = ts.Do(t, "GET", "/v1/agents/self", a.Key, nil).Problem(t, 429, cairn.ERATELIMIT)
	if r.Header.Get("Retry-After") != "10" {
		t.Fatalf("Retry-After %q", r.Header.Get("Retry-After"))
	}
	// Another agent's key has its own budget.
	b := ts.Register(t, "")
	ts.Do(t, "GET", "/v1/agents/self", b.Key, nil).Must(t, 200)
}

func TestE2ERegistrationLimitPerIP(t *testing.T) {
	ts := apitest.NewServer(t, func(p *wiring.Parts) {
		p.Limits.RegistrationsPerIP = 3
	})
	for i := 0; i < 3; i++ {
		ts.Register(t, "")
	}
	ts.Do(t, "POST", "/v1/auth/agent-register", "", nil).Problem(t, 429, cairn.ERATELIMIT)
}

// TestE2EConcurrentSpendNeverOverspends fires many concurrent paid requests
// at an account whose balance covers only some of them.
func TestE2EConcurrentSpendNeverOverspends(t *testing.T) {
	ts := apitest.NewServer(t, func(p *wiring.Parts) {
		p.Limits.WritesPerAgent = 0
		p.Limits.RequestsPerKey = 0
	})
	a := ts.Register(t, "")
	ts.Do(t, "PUT", "/v1/admin/pricing", apitest.AdminToken, map[string]any{"operationCosts": map[string]int{"agent.create": 7}}).Must(t, 200)

	const n = 60
	statuses := map[int]int{}
	for _, r := range apitest.Race(t, n, func(int) (*apitest.Response, error) { return ts.Try(t, "POST", "/v1/agents", a.Key, nil) }) {
		statuses[r.Status]++
	}
	if statuses[201] != 100/7 || statuses[402] != n-100/7 || len(statuses) != 2 {
		t.Fatalf("statuses %v, want %d x 201 and %d x 402", statuses, 100/7, n-100/7)
	}
	if b := ts.Balance(t, a.Key); b != 100%7 {
		t.Fatalf("balance %d, want %d", b, 100%7)
	}
	// The balance equals the sum of the ledger.
	if sum, _ := ts.LedgerSum(t, a.Key); sum != 100%7 {
		t.Fatalf("ledger sums to %v, balance is %d", sum, 100%7)
	}
}

func TestE2ETransactionsCursor(t *testing.T) {
	ts := apitest.NewServer(t)
	a, b := ts.Register(t, ""), ts.Register(t, "")
	ts.Do(t, "POST", "/v1/agents", a.Key, nil).Must(t, 201)
	r := ts.Do(t, "GET", "/v1/billing/transactions?limit=1", a.Key, nil).Must(t, 200)
	next := r.Str("nextCursor")
	if r.JSON["hasMore"] != true || next == "" {
		t.Fatalf("page 1: %s", r.Body)
	}
	if _, ok := r.JSON["total"]; ok {
		t.Fatal("cursor pages carry no total")
	}
	r = ts.Do(t, "GET", "/v1/billing/transactions?limit=1&cursor="+next, a.Key, nil).Must(t, 200)
	if r.JSON["hasMore"] != false || r.JSON["nextCursor"] != nil {
		t.Fatalf("page 2: %s", r.Body)
	}
	ts.Do(t, "GET", "/v1/billing/transactions?cursor="+next+"x", a.Key, nil).Problem(t, 400, cairn.EINVALID)
	ts.Do(t, "GET", "/v1/billing/transactions?cursor="+next, b.Key, nil).Problem(t, 400, cairn.EINVALID)
	ts.Do(t, "GET", "/v1/billing/transactions?limit=101", a.Key, nil).Problem(t, 400, cairn.EINVALID)
	ts.Do(t, "GET", "/v1/billing/transactions?limit=0", a.Key, nil).Problem(t, 400, cairn.EINVALID)
}

// TestE2EConcurrentStreamCharges races Range streams of one file, each
// charged 1 credit (buffered by the embedded store), on an account that
// cannot pay for all of them: exactly as many succeed as there were credits,
// the others are 402, and the balance is the sum of the ledger. A second
// race mixes in unsatisfiable ranges (416, charged then refunded): every
// credit is either spent on a 206 or still there.
func TestE2EConcurrentStreamCharges(t *testing.T) {
	ts := apitest.NewServer(t, func(p *wiring.Parts) {
		p.Limits.WritesPerAgent, p.Limits.RequestsPerKey = 0, 0
	})
	a := ts.Register(t, "")
	content := bytes.Repeat([]byte("0123456789"), 20000) // several chunks
	id := ts.Upload(t, a.Key, apitest.Part{Name: "file", Filename: "f.bin", ContentType: "application/octet-stream", Body: content}).Must(t, 201).Str("id")
	start := ts.Balance(t, a.Key)
	stream := func(rng string) (*apitest.Response, error) {
		return ts.Try(t, "GET", "/v1/media/"+id+"/stream", a.Key, nil, "Range", rng)
	}
	ledger := func() int {
		sum, _ := ts.LedgerSum(t, a.Key)
		return int(sum)
	}

	n := start + 40
	statuses := map[int]int{}
	for i, r := range apitest.Race(t, n, func(i int) (*apitest.Response, error) { return stream(fmt.Sprintf("bytes=%d-%d", i*1000, i*1000+99)) }) {
		statuses[r.Status]++
		if r.Status == 206 && !bytes.Equal(r.Body, content[i*1000:i*1000+100]) {
			t.Fatalf("range %d: wrong bytes", i)
		}
	}
	if statuses[206] != start || statuses[402] != n-start || len(statuses) != 2 {
		t.Fatalf("statuses %v, want %d x 206 and %d x 402", statuses, start, n-start)
	}
	if b, sum := ts.Balance(t, a.Key), ledger(); b != 0 || sum != 0 {
		t.Fatalf("balance %d, ledger sum %d; want 0 and 0", b, sum)
	}

	ts.Do(t, "POST", "/v1/admin/credits", apitest.AdminToken, map[string]any{"developerId": a.DeveloperID, "amount": 30, "reason": "test"}).Must(t, 200)
	statuses = map[int]int{}
	for _, r := range apitest.Race(t, 60, func(i int) (*apitest.Response, error) {
		if i%3 == 0 {
			return stream("bytes=999999999-")
		}
		return stream("bytes=0-99")
	}) {
		statuses[r.Status]++
	}
	b := ts.Balance(t, a.Key)
	if statuses[206]+b != 30 || statuses[416] == 0 || statuses[206]+statuses[402]+statuses[416] != 60 {
		t.Fatalf("statuses %v and balance %d: want the 206s and the balance to make the 30 credits granted", statuses, b)
	}
	if sum := ledger(); sum != b {
		t.Fatalf("ledger sums to %d, balance is %d", sum, b)
	}
}
