package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
)

const admin = apitest.AdminToken

func TestE2EPricing(t *testing.T) {
	ts := startServer(t, testConfig(t, t.TempDir()))
	r := ts.do(t, "GET", "/v1/billing/pricing", "", nil).must(t, 200)
	costs, _ := r.JSON["operationCosts"].(map[string]any)
	want := map[string]float64{"memory.write": 5, "memory.read": 1, "memory.update": 5, "memory.delete": 2,
		"media.upload": 5, "media.stream": 1, "media.delete": 2, "agent.create": 10, "bulk.write": 5, "search": 1}
	if len(costs) != len(want) || r.num("creditPriceUsd") != 0.01 || r.str("note") == "" {
		t.Fatalf("pricing: %s", r.Body)
	}
	for op, c := range want {
		if costs[op] != c {
			t.Fatalf("cost of %s = %v, want %v", op, costs[op], c)
		}
	}
	t.Run("ErrUnknownOperation", func(t *testing.T) {
		ts.do(t, "PUT", "/v1/admin/pricing", admin, map[string]any{"operationCosts": map[string]int{"teleport": 1}}).problem(t, 400, cairn.EINVALID)
		ts.do(t, "PUT", "/v1/admin/pricing", admin, map[string]any{"operationCosts": map[string]int{"search": -1}}).problem(t, 400, cairn.EINVALID)
	})
	t.Run("LiveChange", func(t *testing.T) {
		a := ts.register(t, "")
		r := ts.do(t, "PUT", "/v1/admin/pricing", admin, map[string]any{"operationCosts": map[string]int{"agent.create": 30}}).must(t, 200)
		if c, _ := r.JSON["operationCosts"].(map[string]any); c["agent.create"] != float64(30) || c["search"] != float64(1) {
			t.Fatalf("set pricing: %s", r.Body)
		}
		ts.do(t, "POST", "/v1/agents", a.Key, map[string]any{"name": "child"}).must(t, 201)
		if b := ts.balance(t, a.Key); b != 70 {
			t.Fatalf("balance %d after a 30-credit agent.create, want 70", b)
		}
	})
}

// TestE2EPaymentRequiredAndRefunds: each subtest's agent starts with the
// 100 starter credits.
func TestE2EPaymentRequiredAndRefunds(t *testing.T) {
	ts := startServer(t, testConfig(t, t.TempDir()))

	t.Run("RefundOn400", func(t *testing.T) {
		a := ts.register(t, "payer")
		ts.do(t, "POST", "/v1/agents", a.Key, map[string]any{"name": strings.Repeat("n", 200)}).problem(t, 400, cairn.EINVALID)
		if b := ts.balance(t, a.Key); b != 100 {
			t.Fatalf("balance %d after a refunded 400, want 100", b)
		}
		r := ts.do(t, "GET", "/v1/billing/transactions?limit=2", a.Key, nil).must(t, 200)
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
		a := ts.register(t, "payer")
		r := ts.do(t, "POST", "/v1/agents", a.Key, map[string]any{"name": "kid"}).must(t, 201)
		if r.str("developerId") != a.DeveloperID || r.num("creditBalance") != 90 || r.str("aptosAddress") == a.Address {
			t.Fatalf("child: %s", r.Body)
		}
		kid := r.str("apiKey")
		ts.do(t, "POST", "/v1/agents", kid, nil).must(t, 201)
		if ts.balance(t, a.Key) != 80 || ts.balance(t, kid) != 80 {
			t.Fatal("parent and child do not share one balance")
		}
	})
	t.Run("Err402", func(t *testing.T) {
		a := ts.register(t, "payer")
		ts.do(t, "PUT", "/v1/admin/pricing", admin, map[string]any{"operationCosts": map[string]int{"agent.create": 101}}).must(t, 200)
		defer func() {
			ts.do(t, "PUT", "/v1/admin/pricing", admin, map[string]any{"operationCosts": map[string]int{"agent.create": 10}}).must(t, 200)
		}()
		r := ts.do(t, "POST", "/v1/agents", a.Key, nil).problem(t, 402, cairn.EPAYMENT)
		if r.num("required") != 101 || r.num("available") != 100 {
			t.Fatalf("402 body: %s", r.Body)
		}
		if b := ts.balance(t, a.Key); b != 100 {
			t.Fatalf("balance %d after 402", b)
		}
	})
	t.Run("AdminCredits", func(t *testing.T) {
		a := ts.register(t, "payer")
		ts.do(t, "POST", "/v1/admin/credits", admin, map[string]any{"developerId": a.DeveloperID, "amount": 20}).problem(t, 400, cairn.EINVALID)
		ts.do(t, "POST", "/v1/admin/credits", admin, map[string]any{"developerId": cairn.NewID(), "amount": 20, "reason": "x"}).problem(t, 404, cairn.ENOTFOUND)
		r := ts.do(t, "POST", "/v1/admin/credits", admin, map[string]any{"developerId": a.DeveloperID, "amount": 20, "reason": "support"}).must(t, 200)
		if r.num("creditBalance") != 120 {
			t.Fatalf("grant: %s", r.Body)
		}
		ts.do(t, "POST", "/v1/admin/credits", admin, map[string]any{"developerId": a.DeveloperID, "amount": -121, "reason": "clawback"}).problem(t, 409, cairn.ECONFLICT)
		ts.do(t, "POST", "/v1/agents", a.Key, nil).must(t, 201)
		if b := ts.balance(t, a.Key); b != 110 {
			t.Fatalf("balance %d, want 110", b)
		}
	})
}

func TestE2ERateLimits(t *testing.T) {
	cfg := testConfig(t, t.TempDir())
	cfg.RateLimitPerKey = 6
	cfg.WriteLimitPerAgent = 2
	ts := startServer(t, cfg)
	a := ts.register(t, "")

	// Two writes pass, the third is refused and not charged.
	ts.do(t, "POST", "/v1/agents", a.Key, nil).must(t, 201)
	ts.do(t, "POST", "/v1/agents", a.Key, nil).must(t, 201)
	r := ts.do(t, "POST", "/v1/agents", a.Key, nil).problem(t, 429, cairn.ERATELIMIT)
	if r.Header.Get("Retry-After") != "30" || !strings.HasPrefix(r.Header.Get("RateLimit"), `"writes";r=0;t=`) {
		t.Fatalf("write 429 headers: %v", r.Header)
	}
	r = ts.do(t, "GET", "/v1/billing/balance", a.Key, nil).must(t, 200) // 4th request on this key
	if r.num("creditBalance") != 80 {
		t.Fatalf("balance %v: the rate-limited request was charged", r.num("creditBalance"))
	}
	if !strings.Contains(r.Header.Get("RateLimit-Policy"), `"requests";q=6;w=60`) || !strings.HasPrefix(r.Header.Get("RateLimit"), `"requests";r=2;`) {
		t.Fatalf("headers: %v", r.Header)
	}
	ts.do(t, "GET", "/v1/agents/self", a.Key, nil).must(t, 200)
	ts.do(t, "GET", "/v1/agents/self", a.Key, nil).must(t, 200)
	r = ts.do(t, "GET", "/v1/agents/self", a.Key, nil).problem(t, 429, cairn.ERATELIMIT)
	if r.Header.Get("Retry-After") != "10" {
		t.Fatalf("Retry-After %q", r.Header.Get("Retry-After"))
	}
	// Another agent's key has its own budget.
	b := ts.register(t, "")
	ts.do(t, "GET", "/v1/agents/self", b.Key, nil).must(t, 200)
}

func TestE2ERegistrationLimitPerIP(t *testing.T) {
	cfg := testConfig(t, t.TempDir())
	cfg.RegisterLimitPerIP = 3
	ts := startServer(t, cfg)
	for i := 0; i < 3; i++ {
		ts.register(t, "")
	}
	ts.do(t, "POST", "/v1/auth/agent-register", "", nil).problem(t, 429, cairn.ERATELIMIT)
}

// TestE2EConcurrentSpendNeverOverspends fires many concurrent paid requests
// at an account whose balance covers only some of them.
func TestE2EConcurrentSpendNeverOverspends(t *testing.T) {
	cfg := testConfig(t, t.TempDir())
	cfg.WriteLimitPerAgent = 0
	cfg.RateLimitPerKey = 0
	ts := startServer(t, cfg)
	a := ts.register(t, "")
	ts.do(t, "PUT", "/v1/admin/pricing", admin, map[string]any{"operationCosts": map[string]int{"agent.create": 7}}).must(t, 200)

	const n = 60
	statuses := map[int]int{}
	for _, r := range race(t, n, func(int) (*response, error) { return ts.try(t, "POST", "/v1/agents", a.Key, nil) }) {
		statuses[r.Status]++
	}
	if statuses[201] != 100/7 || statuses[402] != n-100/7 || len(statuses) != 2 {
		t.Fatalf("statuses %v, want %d x 201 and %d x 402", statuses, 100/7, n-100/7)
	}
	if b := ts.balance(t, a.Key); b != 100%7 {
		t.Fatalf("balance %d, want %d", b, 100%7)
	}
	// The balance equals the sum of the ledger.
	if sum, _ := ledgerSum(t, ts, a.Key); sum != 100%7 {
		t.Fatalf("ledger sums to %v, balance is %d", sum, 100%7)
	}
}

func TestE2ETransactionsCursor(t *testing.T) {
	ts := startServer(t, testConfig(t, t.TempDir()))
	a, b := ts.register(t, ""), ts.register(t, "")
	ts.do(t, "POST", "/v1/agents", a.Key, nil).must(t, 201)
	r := ts.do(t, "GET", "/v1/billing/transactions?limit=1", a.Key, nil).must(t, 200)
	next := r.str("nextCursor")
	if r.JSON["hasMore"] != true || next == "" {
		t.Fatalf("page 1: %s", r.Body)
	}
	if _, ok := r.JSON["total"]; ok {
		t.Fatal("cursor pages carry no total")
	}
	r = ts.do(t, "GET", "/v1/billing/transactions?limit=1&cursor="+next, a.Key, nil).must(t, 200)
	if r.JSON["hasMore"] != false || r.JSON["nextCursor"] != nil {
		t.Fatalf("page 2: %s", r.Body)
	}
	ts.do(t, "GET", "/v1/billing/transactions?cursor="+next+"x", a.Key, nil).problem(t, 400, cairn.EINVALID)
	ts.do(t, "GET", "/v1/billing/transactions?cursor="+next, b.Key, nil).problem(t, 400, cairn.EINVALID)
	ts.do(t, "GET", "/v1/billing/transactions?limit=101", a.Key, nil).problem(t, 400, cairn.EINVALID)
	ts.do(t, "GET", "/v1/billing/transactions?limit=0", a.Key, nil).problem(t, 400, cairn.EINVALID)
}

func TestE2EDeveloperToken(t *testing.T) {
	dir := t.TempDir()
	ts := startServer(t, testConfig(t, dir))
	a := ts.register(t, "")
	var out, errOut bytes.Buffer
	if code := Run(t.Context(), []string{"token", "--developer-id", a.DeveloperID, "--data-dir", dir, "--ttl", "1h"}, &out, &errOut, func(string) string { return "" }); code != 0 {
		t.Fatalf("token exit %d: %s", code, errOut.String())
	}
	jwt := strings.TrimSpace(out.String())
	r := ts.do(t, "GET", "/v1/billing/balance", jwt, nil).must(t, 200)
	if r.str("developerId") != a.DeveloperID || r.num("creditBalance") != 100 {
		t.Fatalf("balance by JWT: %s", r.Body)
	}
	ts.do(t, "GET", "/v1/billing/balance", jwt[:len(jwt)-2]+"xx", nil).problem(t, 401, cairn.EUNAUTHORIZED)
	// Developer tokens are not agent keys: agent-only routes refuse them.
	ts.do(t, "GET", "/v1/agents/self", jwt, nil).problem(t, 401, cairn.EUNAUTHORIZED)

	out.Reset()
	other := strings.Repeat("o", 32)
	if code := Run(t.Context(), []string{"token", "--developer-id", a.DeveloperID, "--jwt-secret", other}, &out, &errOut, func(string) string { return "" }); code != 0 {
		t.Fatalf("token with explicit secret failed: %s", errOut.String())
	}
	ts.do(t, "GET", "/v1/billing/balance", strings.TrimSpace(out.String()), nil).problem(t, 401, cairn.EUNAUTHORIZED)
	// The server's rules hold for the secret: 32 bytes at least, given once.
	out.Reset()
	errOut.Reset()
	if code := Run(t.Context(), []string{"token", "--developer-id", a.DeveloperID, "--jwt-secret", "short"}, &out, &errOut, func(string) string { return "" }); code != 2 || out.Len() != 0 || !strings.Contains(errOut.String(), "at least 32") {
		t.Fatalf("token with a 5-byte secret: exit %d, out %q, err %q; want 2, nothing printed, the rule named", code, out.String(), errOut.String())
	}
	secretFile := filepath.Join(t.TempDir(), "jwt")
	if err := os.WriteFile(secretFile, []byte(other+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := Run(t.Context(), []string{"token", "--developer-id", a.DeveloperID, "--jwt-secret-file", secretFile}, &out, &errOut, func(string) string { return "" }); code != 0 {
		t.Fatalf("token with --jwt-secret-file: %s", errOut.String())
	}
	if code := Run(t.Context(), []string{"token", "--developer-id", a.DeveloperID, "--jwt-secret-file", secretFile, "--jwt-secret", other}, &out, &errOut, func(string) string { return "" }); code != 2 {
		t.Fatalf("token with the secret given twice: exit %d, want 2", code)
	}
	if code := Run(t.Context(), []string{"token"}, &out, &errOut, func(string) string { return "" }); code != 2 {
		t.Fatalf("token without --developer-id exit %d, want 2", code)
	}
	// A data dir without the server's key is refused, and no key is created
	// there (it would sign tokens no server accepts).
	empty := filepath.Join(t.TempDir(), "data")
	out.Reset()
	errOut.Reset()
	if code := Run(t.Context(), []string{"token", "--developer-id", a.DeveloperID, "--data-dir", empty}, &out, &errOut, func(string) string { return "" }); code != 2 || out.Len() != 0 || !strings.Contains(errOut.String(), "--data-dir") {
		t.Fatalf("token over an empty data dir: exit %d, out %q, err %q", code, out.String(), errOut.String())
	}
	if _, err := os.Stat(empty); !os.IsNotExist(err) {
		t.Fatalf("token created %s: %v", empty, err)
	}
}

// TestE2EConcurrentStreamCharges races Range streams of one file, each
// charged 1 credit (buffered by the embedded store), on an account that
// cannot pay for all of them: exactly as many succeed as there were credits,
// the others are 402, and the balance is the sum of the ledger. A second
// race mixes in unsatisfiable ranges (416, charged then refunded): every
// credit is either spent on a 206 or still there.
func TestE2EConcurrentStreamCharges(t *testing.T) {
	cfg := testConfig(t, t.TempDir())
	cfg.WriteLimitPerAgent, cfg.RateLimitPerKey = 0, 0
	ts := startServer(t, cfg)
	a := ts.register(t, "")
	content := bytes.Repeat([]byte("0123456789"), 20000) // several chunks
	id := ts.upload(t, a.Key, part{name: "file", filename: "f.bin", contentType: "application/octet-stream", body: content}).must(t, 201).str("id")
	start := ts.balance(t, a.Key)
	stream := func(rng string) (*response, error) {
		return ts.try(t, "GET", "/v1/media/"+id+"/stream", a.Key, nil, "Range", rng)
	}
	ledger := func() int {
		sum, _ := ledgerSum(t, ts, a.Key)
		return int(sum)
	}

	n := start + 40
	statuses := map[int]int{}
	for i, r := range race(t, n, func(i int) (*response, error) { return stream(fmt.Sprintf("bytes=%d-%d", i*1000, i*1000+99)) }) {
		statuses[r.Status]++
		if r.Status == 206 && !bytes.Equal(r.Body, content[i*1000:i*1000+100]) {
			t.Fatalf("range %d: wrong bytes", i)
		}
	}
	if statuses[206] != start || statuses[402] != n-start || len(statuses) != 2 {
		t.Fatalf("statuses %v, want %d x 206 and %d x 402", statuses, start, n-start)
	}
	if b, sum := ts.balance(t, a.Key), ledger(); b != 0 || sum != 0 {
		t.Fatalf("balance %d, ledger sum %d; want 0 and 0", b, sum)
	}

	ts.do(t, "POST", "/v1/admin/credits", admin, map[string]any{"developerId": a.DeveloperID, "amount": 30, "reason": "test"}).must(t, 200)
	statuses = map[int]int{}
	for _, r := range race(t, 60, func(i int) (*response, error) {
		if i%3 == 0 {
			return stream("bytes=999999999-")
		}
		return stream("bytes=0-99")
	}) {
		statuses[r.Status]++
	}
	b := ts.balance(t, a.Key)
	if statuses[206]+b != 30 || statuses[416] == 0 || statuses[206]+statuses[402]+statuses[416] != 60 {
		t.Fatalf("statuses %v and balance %d: want the 206s and the balance to make the 30 credits granted", statuses, b)
	}
	if sum := ledger(); sum != b {
		t.Fatalf("ledger sums to %d, balance is %d", sum, b)
	}
}
