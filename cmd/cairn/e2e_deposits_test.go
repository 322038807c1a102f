package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	aptossdk "github.com/aptos-labs/aptos-go-sdk"
	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/chain/aptos"
	"github.com/cairn-dev/cairn/store/postgres/pgtest"
)

// fakeAptos serves GET /v1/transactions/by_hash/{hash} as an Aptos node
// does, from recorded mainnet answers rewritten per test.
type fakeAptos struct {
	mu     sync.Mutex
	bodies map[string]string
	srv    *httptest.Server
}

func newFakeAptos(t *testing.T) *fakeAptos {
	f := &fakeAptos{bodies: map[string]string{}}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hash := strings.TrimPrefix(r.URL.Path, "/v1/transactions/by_hash/")
		f.mu.Lock()
		body, ok := f.bodies[hash]
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch {
		case !ok:
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprintf(w, `{"message":"Transaction not found by Transaction hash(%s)","error_code":"transaction_not_found","vm_error_code":null}`, hash)
		case body == "500":
			w.WriteHeader(http.StatusInternalServerError)
			w.Write([]byte(`{"message":"internal","error_code":"internal_error"}`))
		default:
			w.Write([]byte(body))
		}
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeAptos) set(hash, body string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.bodies[hash] = body
}

func recorded(t *testing.T, name string) map[string]any {
	t.Helper()
	b, err := os.ReadFile("../../chain/aptos/testdata/node/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func encode(t *testing.T, m map[string]any) string {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// faDeposit is the recorded APT fungible-asset transfer, its hash set to
// hash and its Deposit event moving octas into owner's primary APT store.
func faDeposit(t *testing.T, hash, owner string, octas uint64, success bool) string {
	t.Helper()
	m := recorded(t, "by_hash_aptos_account_transfer_fa_orderless.json")
	var o aptossdk.AccountAddress
	if err := o.ParseStringRelaxed(owner); err != nil {
		t.Fatal(err)
	}
	store := aptos.PrimaryAPTStore(o)
	m["hash"], m["success"] = hash, success
	if !success {
		m["vm_status"] = "Move abort in 0x1::fungible_asset: EINSUFFICIENT_BALANCE(0x10004)"
	}
	for _, e := range m["events"].([]any) {
		ev := e.(map[string]any)
		if ev["type"] == "0x1::fungible_asset::Deposit" {
			ev["data"].(map[string]any)["store"] = store.String()
		}
		if ev["type"] == "0x1::fungible_asset::Deposit" || ev["type"] == "0x1::fungible_asset::Withdraw" {
			ev["data"].(map[string]any)["amount"] = fmt.Sprint(octas)
		}
	}
	return encode(t, m)
}

// coinDeposit is the recorded legacy coin DepositEvent (a USDT claim), its
// hash set to hash, moved to owner; apt makes it the edited recording of an
// APT transfer into the owner's CoinStore<AptosCoin>, paid by another
// account's.
func coinDeposit(t *testing.T, hash, owner string, octas uint64, apt bool) string {
	t.Helper()
	name := "mainnet_v147811396_coin_v1_deposit_event_usdt_claim.json"
	if apt {
		name = "edited_coin_v1_apt_transfer.json"
	}
	return coinTransfer(t, name, "0x4c1b416e4e3793724dabd2d10909689bd534159a2d4d4b605ec22d9e593bbad3", hash, owner, octas)
}

// coinTransfer is the recording name of a coin transfer to recordedTo,
// its hash set to hash, recordedTo replaced by owner and every coin event's
// amount (handle and module events) set to octas.
func coinTransfer(t *testing.T, name, recordedTo, hash, owner string, octas uint64) string {
	t.Helper()
	m := recorded(t, name)
	m["hash"] = hash
	for _, e := range m["events"].([]any) {
		ev := e.(map[string]any)
		switch ev["type"] {
		case "0x1::coin::DepositEvent", "0x1::coin::WithdrawEvent", "0x1::coin::CoinDeposit", "0x1::coin::CoinWithdraw":
			ev["data"].(map[string]any)["amount"] = fmt.Sprint(octas)
		}
	}
	return strings.ReplaceAll(encode(t, m), recordedTo, owner)
}

func txHash(n int) string { return fmt.Sprintf("0x%064x", 0xd0000+n) }

// ledgerSum adds up every entry of the account's ledger (apitest.Client.LedgerSum).
func ledgerSum(t *testing.T, ts *testServer, key string) (sum int64, deposits []map[string]any) {
	t.Helper()
	return ts.client().LedgerSum(t, key)
}

// TestE2EDeposits: APT deposits over HTTP on the embedded store and on
// PostgreSQL, against a fake node serving recorded mainnet answers: every
// kind of transaction, every failure of the node, twenty concurrent
// submissions of one hash, and the balance equal to the ledger's sum.
func TestE2EDeposits(t *testing.T) {
	t.Run("Pebble", func(t *testing.T) { testDeposits(t, "") })
	t.Run("Postgres", func(t *testing.T) { testDeposits(t, pgtest.URL(t)) })
}

func testDeposits(t *testing.T, pgURL string) {
	node := newFakeAptos(t)
	cfg := testConfig(t, t.TempDir())
	cfg.AptosNodeURL, cfg.CreditsPerAPT = node.srv.URL+"/v1", 1000
	if pgURL != "" {
		cfg.Store, cfg.PostgresSchema = pgURL, pgtest.Schema(t, pgURL)
	}
	ts := startServer(t, cfg)
	a, b := ts.register(t, "payer"), ts.register(t, "other")
	deposit := func(key, hash string) *response {
		return ts.do(t, "POST", "/v1/billing/agent/deposit", key, map[string]any{"txHash": hash})
	}
	bal := ts.do(t, "GET", "/v1/billing/agent/balance", a.Key, nil).must(t, 200)
	if info := bal.JSON["depositInfo"].(map[string]any); info["address"] != a.Address || !strings.Contains(info["note"].(string), "1000 credits per APT") {
		t.Fatalf("depositInfo: %s", bal.Body)
	}

	// A fungible-asset transfer of 0.5 APT: 500 credits, once.
	node.set(txHash(1), faDeposit(t, txHash(1), a.Address, 50_000_000, true))
	r := deposit(a.Key, strings.ToUpper(txHash(1)[2:])).must(t, 201)
	if r.num("creditsAdded") != 500 || r.num("creditBalance") != 600 || r.str("octas") != "50000000" || r.str("txHash") != txHash(1) {
		t.Fatalf("deposit: %s", r.Body)
	}
	first := r.JSON["transaction"].(map[string]any)["id"]
	for _, key := range []string{a.Key, b.Key} {
		p := deposit(key, txHash(1)).problem(t, 409, cairn.EALREADYCREDITED)
		if c := p.JSON["credit"].(map[string]any); c["transactionId"] != first || c["amount"] != float64(500) {
			t.Fatalf("already credited: %s", p.Body)
		}
	}
	// A legacy coin deposit of 1.5 APT (and 0.000005 APT: below one credit).
	node.set(txHash(2), coinDeposit(t, txHash(2), a.Address, 150_000_000, true))
	if r := deposit(a.Key, txHash(2)).must(t, 201); r.num("creditsAdded") != 1500 {
		t.Fatalf("legacy deposit: %s", r.Body)
	}
	node.set(txHash(3), faDeposit(t, txHash(3), a.Address, 500, true))

	// Refusals: nothing credited, each in the audit log with its reason.
	node.set(txHash(4), coinDeposit(t, txHash(4), a.Address, 150_000_000, false)) // USDT
	node.set(txHash(5), encode(t, recorded(t, "mainnet_v3665938237_fa_transfer_non_apt_fee_payer.json")))
	node.set(txHash(6), encode(t, recorded(t, "mainnet_v3665938238_block_epilogue.json")))
	node.set(txHash(7), faDeposit(t, txHash(7), a.Address, 50_000_000, false))
	node.set(txHash(8), faDeposit(t, txHash(8), b.Address, 50_000_000, true)) // to another agent
	node.set(txHash(9), `{"type":"pending_transaction","hash":"`+txHash(9)+`","sender":"`+a.Address+`","sequence_number":"1","max_gas_amount":"10","gas_unit_price":"100","expiration_timestamp_secs":"1","payload":{"type":"entry_function_payload","function":"0x1::aptos_account::transfer","type_arguments":[],"arguments":["`+a.Address+`","1"]},"signature":{"type":"ed25519_signature","public_key":"0x`+strings.Repeat("00", 32)+`","signature":"0x`+strings.Repeat("00", 64)+`"}}`)
	node.set(txHash(10), "500")
	for _, tc := range []struct {
		hash   string
		status int
		code   string
	}{
		{txHash(3), 422, cairn.EUNPROCESSABLE}, {txHash(4), 422, cairn.EUNPROCESSABLE}, {txHash(5), 422, cairn.EUNPROCESSABLE},
		{txHash(6), 422, cairn.EUNPROCESSABLE}, {txHash(7), 422, cairn.EUNPROCESSABLE}, {txHash(8), 422, cairn.EUNPROCESSABLE},
		{txHash(9), 409, cairn.EPENDING}, {txHash(10), 502, cairn.EUPSTREAM}, {txHash(11), 404, cairn.ENOTFOUND},
		{"0x1234", 400, cairn.EINVALID}, {"", 400, cairn.EINVALID},
	} {
		p := deposit(a.Key, tc.hash).problem(t, tc.status, tc.code)
		if tc.code == cairn.EPENDING && p.Header.Get("Retry-After") == "" {
			t.Fatal("pending without Retry-After")
		}
	}
	ts.do(t, "POST", "/v1/billing/agent/deposit", a.Key, nil).problem(t, 400, cairn.EINVALID)
	ts.do(t, "POST", "/v1/billing/agent/deposit", "", map[string]any{"txHash": txHash(1)}).problem(t, 401, cairn.EUNAUTHORIZED)
	if got := ts.balance(t, a.Key); got != 2100 {
		t.Fatalf("balance %d after refusals, want 2100", got)
	}
	// The node recovers, and the hash it failed on is credited.
	node.set(txHash(10), faDeposit(t, txHash(10), a.Address, 100_000_000, true))
	deposit(a.Key, txHash(10)).must(t, 201)
	// Once committed, the pending transaction is credited.
	node.set(txHash(9), faDeposit(t, txHash(9), a.Address, 100_000_000, true))
	deposit(a.Key, txHash(9)).must(t, 201)

	// Twenty concurrent submissions of one hash: one credit. (A fresh
	// agent: deposits count toward the write limit.)
	c := ts.register(t, "burst")
	node.set(txHash(12), faDeposit(t, txHash(12), c.Address, 200_000_000, true))
	rs := race(t, 20, func(int) (*response, error) {
		return ts.try(t, "POST", "/v1/billing/agent/deposit", c.Key, `{"txHash":"`+txHash(12)+`"}`)
	})
	created := 0
	for i, r := range rs {
		switch {
		case r.Status == 201:
			created++
		case r.Status != 409 || r.str("code") != cairn.EALREADYCREDITED:
			t.Fatalf("concurrent submission %d: %d %s", i, r.Status, r.str("code"))
		}
	}
	if created != 1 {
		t.Fatalf("%d of 20 concurrent submissions credited, want 1", created)
	}
	if sum, _ := ledgerSum(t, ts, c.Key); sum != 2100 || ts.balance(t, c.Key) != 2100 {
		t.Fatalf("after 20 concurrent submissions: ledger sum %d, balance %d, want 2100", sum, ts.balance(t, c.Key))
	}

	// Spend some, then the balance is the ledger's sum, with every deposit
	// and its hash listed.
	ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "k", "content": "x"}).must(t, 201)
	want := int64(100 + 500 + 1500 + 1000 + 1000 - 5) // a memory write costs 5
	sum, deposits := ledgerSum(t, ts, a.Key)
	if got := int64(ts.balance(t, a.Key)); got != want || sum != want || len(deposits) != 4 {
		t.Fatalf("balance %d, ledger sum %d, %d deposits; want %d and 4", got, sum, len(deposits), want)
	}
	for _, d := range deposits {
		if !strings.HasPrefix(d["txHash"].(string), "0x") || !strings.Contains(d["reason"].(string), "octas") {
			t.Fatalf("deposit entry %v", d)
		}
	}
	log := ts.do(t, "GET", "/v1/memory/audit?action=deposit&limit=100", a.Key, nil).must(t, 200).JSON["entries"].([]any)
	reasons := map[string]bool{}
	for _, e := range log {
		reasons[e.(map[string]any)["detail"].(map[string]any)["outcome"].(string)] = true
	}
	for _, want := range []string{"credited", "already_credited", "no_apt_deposit", "failed_transaction", "not_user_transaction",
		"below_one_credit", cairn.EPENDING, cairn.EUPSTREAM, cairn.ENOTFOUND} {
		if !reasons[want] {
			t.Errorf("no %q deposit in the audit log: %v", want, reasons)
		}
	}
}
