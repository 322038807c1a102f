package main

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/chain"
	"github.com/cairn-dev/cairn/chain/evm"
	"github.com/cairn-dev/cairn/chain/evm/evmtest"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"
)

// TestE2EGanacheFaults anchors on a ganache of the test's own, which it
// breaks twice:
//   - a reorganisation drops the transaction that set version 2 after it
//     was mined (evm_revert to a snapshot taken before): the anchorer
//     finds its receipt gone, sends the same transaction again, once, and
//     reaches synced; the contract holds version 2 by one RootsUpdated
//     event;
//   - the node is stopped while version 3 is to be anchored: the anchor
//     reports failed with the reason, screening answers meanwhile (it never
//     waits for the chain), and once the node is back the version is sent
//     and synced without a restart of the service.
func TestE2EGanacheFaults(t *testing.T) {
	node := evmtest.Own(t)
	url := node.URL()
	_, keyFile := ganacheKeyFile(t, 0)
	code, out, errs := runCmd("contract", "deploy", "--evm-rpc-url", url, "--evm-key-file", keyFile)
	if code != 0 || !common.IsHexAddress(strings.TrimSpace(out)) {
		t.Fatalf("contract deploy: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	contract := common.HexToAddress(strings.TrimSpace(out))
	cfg, list := complianceConfig(t)
	cfg.EVMRPCURL, cfg.EVMContract, cfg.EVMKeyFile = url, contract.Hex(), keyFile
	cfg.EVMConfirmations, cfg.EVMPollInterval = 3, 50*time.Millisecond
	// The anchoring key sends only the roots: the oracle's batches (tested
	// under a reorganisation in chain/evm) would take nonces of their own.
	cfg.EVMOracle = false
	ts := startServer(t, cfg)
	a := ts.register(t, "")
	// wait mines blocks until ok holds of the anchor's status.
	wait := func(what string, mine bool, ok func(cairn.Anchor) bool) cairn.Anchor {
		t.Helper()
		for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			st := anchorStatus(t, ts)
			if ok(st) {
				return st
			}
			if time.Now().After(deadline) {
				t.Fatalf("anchor %+v, waiting for %s", st, what)
			}
			if mine {
				node.Mine()
			}
		}
	}
	synced := func(v uint64) func(cairn.Anchor) bool {
		return func(st cairn.Anchor) bool { return st.ListVersion == v && st.Status == chain.AnchorSynced }
	}
	wait("version 1 synced", true, synced(1))
	onChain := func() uint64 {
		t.Helper()
		client, err := ethclient.Dial(url)
		if err != nil {
			t.Fatal(err)
		}
		defer client.Close()
		v := evm.NewVerifier()
		lv, err := bind.Call(v.Instance(client, contract), nil, v.PackListVersion(), v.UnpackListVersion)
		if err != nil {
			t.Fatal(err)
		}
		return lv
	}
	eth, err := os.ReadFile(list)
	if err != nil {
		t.Fatal(err)
	}
	admin := "admin-test-token-0123456789abcdef"

	// A reorganisation drops version 2's transaction once mined.
	snap := node.Snapshot()
	delist(t, list, eth, tornado)
	ts.do(t, "POST", "/v1/admin/ingest", admin, nil).must(t, 200)
	mined := wait("version 2 mined", false, func(st cairn.Anchor) bool {
		return st.ListVersion == 2 && st.Status == chain.AnchorSubmitted && st.BlockNumber > 0
	})
	if onChain() != 2 {
		t.Fatal("version 2's transaction is not on chain before the revert")
	}
	node.Revert(snap)
	if onChain() != 1 {
		t.Fatal("the revert kept version 2 on chain")
	}
	after := wait("version 2 synced after the reorganisation", true, synced(2))
	if after.TxHash != mined.TxHash {
		t.Fatalf("version 2 was signed anew (%s, was %s): the same transaction is sent again", after.TxHash, mined.TxHash)
	}
	if !strings.Contains(ts.logs.String(), "broadcasting the stored transaction again") {
		t.Fatalf("no rebroadcast logged:\n%s", ts.logs.String())
	}
	client, err := ethclient.Dial(url)
	if err != nil {
		t.Fatal(err)
	}
	recorded, err := evm.RootsOf(t.Context(), client, contract, 2, 0)
	client.Close()
	if err != nil || len(recorded) != 1 || onChain() != 2 {
		t.Fatalf("version 2 recorded %d times (%v), contract at version %d", len(recorded), err, onChain())
	}

	// The node stops while version 3 is to be anchored.
	node.Stop()
	if err := os.WriteFile(list, eth, 0o600); err != nil { // tornado listed again
		t.Fatal(err)
	}
	ts.do(t, "POST", "/v1/admin/ingest", admin, nil).must(t, 200)
	failed := wait("version 3 failed while the node is down", false, func(st cairn.Anchor) bool {
		return st.ListVersion == 3 && st.Status == chain.AnchorFailed && st.Error != ""
	})
	// Screening does not wait for the chain.
	s := ts.do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": []map[string]any{{"address": tornado, "chain": "ethereum"}}}).must(t, 200)
	if !strings.Contains(string(s.Body), `"status":"sanctioned"`) || !strings.Contains(string(s.Body), `"listVersion":3`) {
		t.Fatalf("screening while the node is down: %s", s.Body)
	}
	node.Start()
	wait("version 3 synced once the node is back", true, synced(3))
	if onChain() != 3 {
		t.Fatalf("contract at version %d after the node came back", onChain())
	}
	t.Logf("while the node was down: %s", failed.Error)
}
