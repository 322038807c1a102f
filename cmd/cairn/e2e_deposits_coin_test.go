package main

import (
	"testing"

	"github.com/cairn-dev/cairn"
)

// moduleRecipient is the recipient of the recorded devnet APT transfer
// shown only by the module events 0x1::coin::CoinWithdraw and CoinDeposit
// (chain/aptos/testdata/node/PROVENANCE.md).
const moduleRecipient = "0x1961df628d2d224ecc91d56dfd0a4b9a545e9cf0ec9da2337c6c5c73f6171db8"

// TestE2EDepositsCoinModuleEvents: over HTTP, against the fake node, APT
// shown by 0x1::coin::CoinDeposit module events raises the account's
// balance by its credits, once even when the transaction also shows the
// transfer by the legacy handle events, and nothing when the CoinDeposit
// names another agent's address. Recorded: the devnet transfer and the
// edited recording with both kinds of event; built here: the hash, the
// recipient (the agent's address) and the amount.
func TestE2EDepositsCoinModuleEvents(t *testing.T) {
	node := newFakeAptos(t)
	cfg := testConfig(t, t.TempDir())
	cfg.AptosNodeURL, cfg.CreditsPerAPT = node.srv.URL+"/v1", 1000
	ts := startServer(t, cfg)
	a, b := ts.register(t, "payer"), ts.register(t, "other")
	deposit := func(hash string) *response {
		return ts.do(t, "POST", "/v1/billing/agent/deposit", a.Key, map[string]any{"txHash": hash})
	}
	const moduleOnly, both = "devnet_v47261875_coin_module_events_apt_transfer.json", "edited_coin_both_events_apt_transfer.json"
	node.set(txHash(1), coinTransfer(t, moduleOnly, moduleRecipient, txHash(1), a.Address, 200_000_000))
	node.set(txHash(2), coinTransfer(t, both, moduleRecipient, txHash(2), a.Address, 30_000_000))
	node.set(txHash(3), coinTransfer(t, moduleOnly, moduleRecipient, txHash(3), b.Address, 100_000_000))

	// 2 APT shown only by CoinDeposit: 2,000 credits.
	if r := deposit(txHash(1)).must(t, 201); r.num("creditsAdded") != 2000 || r.num("creditBalance") != 2100 || r.str("octas") != "200000000" {
		t.Fatalf("CoinDeposit: %s", r.Body)
	}
	// 0.3 APT shown by CoinDeposit and DepositEvent: 300 credits, not 600.
	if r := deposit(txHash(2)).must(t, 201); r.num("creditsAdded") != 300 || r.num("creditBalance") != 2400 || r.str("octas") != "30000000" {
		t.Fatalf("CoinDeposit and DepositEvent: %s", r.Body)
	}
	// To the other agent's address, claimed by this one: nothing.
	if p := deposit(txHash(3)).problem(t, 422, cairn.EUNPROCESSABLE); p.str("reason") != "no_apt_deposit" {
		t.Fatalf("another agent's deposit: %s", p.Body)
	}
	deposit(txHash(1)).problem(t, 409, cairn.EALREADYCREDITED)
	sum, deposits := ledgerSum(t, ts, a.Key)
	if got := ts.balance(t, a.Key); got != 2400 || sum != 2400 || len(deposits) != 2 {
		t.Fatalf("balance %d, ledger sum %d, %d deposits; want 2400, 2400 and 2", got, sum, len(deposits))
	}
	if got := ts.balance(t, b.Key); got != 100 {
		t.Fatalf("the other agent's balance %d, want 100", got)
	}
}
