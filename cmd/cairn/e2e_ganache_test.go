package main

import (
	"crypto/ecdsa"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/chain/evm"
	"github.com/cairn-dev/cairn/chain/evm/evmtest"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"
)

// TestE2EGanache: the operator's path on a real JSON-RPC node. `cairn
// contract deploy` deploys the verifier; `cairn serve` pointed at it
// anchors each list version; the proofs the HTTP API serves (single ones,
// a screening's stored multiproof, community proofs) verify with a plain
// eth_call, and the old ones stop verifying after an update (a source's
// delisting, an administrator's delisting of a community address).
func TestE2EGanache(t *testing.T) {
	url, keyFile, contract := deployOnGanache(t, evmtest.KeyE2E)
	client, err := ethclient.Dial(url)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	v := evm.NewVerifier()
	bound := v.Instance(client, contract)
	if owner, err := bind.Call(bound, nil, v.PackOwner(), v.UnpackOwner); err != nil || owner.Hex() != "0xFFcf8FDEE72ac11b5c542428B35EEF5769C409f0" {
		t.Fatalf("owner %s, %v", owner.Hex(), err)
	}

	cfg, list := complianceConfig(t)
	cfg.EVMRPCURL, cfg.EVMContract, cfg.EVMKeyFile, cfg.EVMConfirmations, cfg.EVMPollInterval = url, contract.Hex(), keyFile, 1, 100*time.Millisecond
	ts := startServer(t, cfg)
	a := ts.register(t, "")
	waitSynced := func(version uint64) { t.Helper(); waitGanacheSynced(t, ts, version) }
	onChain := func(p proof) bool {
		t.Helper()
		ok, err := bind.Call(bound, nil, v.PackIsSanctioned(common.HexToAddress(p.canon), p.proof), v.UnpackIsSanctioned)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	waitSynced(1)
	p1 := getProof(t, ts, a.Key, tornado, "ethereum")
	if !p1.listed || !onChain(p1) {
		t.Fatal("tornado's proof does not verify on ganache")
	}
	if onChain(getProof(t, ts, a.Key, "0x000000000000000000000000000000000000dEaD", "ethereum")) {
		t.Fatal("an unlisted address verifies on ganache")
	}
	// Clear proofs: the API's exclusion proof of an unlisted address
	// passes isNotSanctioned; the same gap for a listed address, or a
	// widened one, does not.
	clearProof := func(addr string) gap { return clearProofOf(t, ts, a.Key, addr) }
	notSanctioned := func(g gap) bool { return isNotSanctioned(t, bound, g) }
	clear1 := clearProof("0x1111111111111111111111111111111111111111")
	if !notSanctioned(clear1) {
		t.Fatal("isNotSanctioned refuses the API's clear proof on ganache")
	}
	if listedGap := (gap{common.HexToAddress(tornado), clear1.low, clear1.high, clear1.proof}); notSanctioned(listedGap) {
		t.Fatal("isNotSanctioned accepts a listed address on ganache")
	}
	if widened := (gap{clear1.account, common.Address{}, clear1.high, clear1.proof}); notSanctioned(widened) {
		t.Fatal("isNotSanctioned accepts a widened gap on ganache")
	}

	// A screening proof's stored multiproof verifies with one eth_call.
	s := ts.do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": []map[string]any{{"address": tornado, "chain": "ethereum"}}}).must(t, 200)
	var doc struct {
		MerkleProofs map[string]struct {
			Leaves     []string `json:"leaves"`
			Proof      []string `json:"proof"`
			ProofFlags []bool   `json:"proofFlags"`
		} `json:"merkleProofs"`
	}
	body := ts.do(t, "GET", "/v1/compliance/proofs/"+s.JSON["proof"].(map[string]any)["screeningId"].(string), "", nil).must(t, 200).Body
	if err := json.Unmarshal(body, &doc); err != nil || len(doc.MerkleProofs["sanctions"].Leaves) != 1 {
		t.Fatalf("stored proof: %v %s", err, body)
	}
	hashes := func(hs []string) [][32]byte {
		out := make([][32]byte, len(hs))
		for i, h := range hs {
			out[i] = hexBytes32(t, h)
		}
		return out
	}
	mp := doc.MerkleProofs["sanctions"]
	if ok, err := bind.Call(bound, nil, v.PackMultiProofVerify(hashes(mp.Proof), mp.ProofFlags, hashes(mp.Leaves)), v.UnpackMultiProofVerify); err != nil || !ok {
		t.Fatalf("multiProofVerify of a screening proof on ganache: %v, %v", ok, err)
	}
	// verify-proof finds the document's roots among the contract's
	// RootsUpdated events; at an address that anchored nothing it fails.
	docFile := filepath.Join(t.TempDir(), "screening.json")
	if err := os.WriteFile(docFile, body, 0o600); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runCmd("verify-proof", "--offline", "--evm-rpc-url", url, "--evm-contract", contract.Hex(), docFile); code != 0 ||
		!strings.Contains(out, "OK: the roots of list version 1 were anchored at "+contract.Hex()) {
		t.Fatalf("verify-proof on ganache: exit %d, %s %s", code, out, errs)
	}
	if code, out, errs := runCmd("verify-proof", "--offline", "--evm-rpc-url", url, "--evm-contract", "0x000000000000000000000000000000000000dEaD", docFile); code != 1 ||
		!strings.Contains(out+errs, "was never anchored") {
		t.Fatalf("verify-proof against a contract that anchored nothing: exit %d, %s %s", code, out, errs)
	}
	// A Merkle proof too; one made by hand, a lone leaf as its own root
	// with no proof hashes, verifies offline but not against the chain.
	single := ts.do(t, "GET", "/v1/compliance/merkle-proof?chain=ethereum&address="+tornado, a.Key, nil).must(t, 200).Body
	var made map[string]any
	json.Unmarshal(single, &made)
	made["root"], made["proof"] = made["leaf"], []any{}
	forgedRoot, _ := json.Marshal(made)
	for _, tc := range []struct {
		name string
		body []byte
		code int
		out  string
	}{{"single.json", single, 0, "OK: the roots of list version 1 were anchored"}, {"lone-leaf.json", forgedRoot, 1, "recorded other roots"}} {
		path := filepath.Join(t.TempDir(), tc.name)
		os.WriteFile(path, tc.body, 0o600)
		if code, out, errs := runCmd("verify-proof", "--offline", "--evm-rpc-url", url, "--evm-contract", contract.Hex(), path); code != tc.code || !strings.Contains(out+errs, tc.out) {
			t.Fatalf("verify-proof of %s on ganache: exit %d, %s %s", tc.name, code, out, errs)
		}
	}

	// The community tree: three established reporters list an address in
	// version 2, an administrator delists it in version 3.
	const suspect = "0x00000000000000000000000000000000c0ffee00"
	escalate(t, ts, suspect)
	waitSynced(2)
	cp := getProof(t, ts, a.Key, suspect, "ethereum")
	community := func() (bool, bool) {
		t.Helper()
		inCommunity, err := bind.Call(bound, nil, v.PackIsCommunityListed("evm", cp.canon, cp.proof), v.UnpackIsCommunityListed)
		if err != nil {
			t.Fatal(err)
		}
		inSanctions, err := bind.Call(bound, nil, v.PackIsListed("evm", cp.canon, cp.proof), v.UnpackIsListed)
		if err != nil {
			t.Fatal(err)
		}
		return inCommunity, inSanctions
	}
	if c, s := community(); !cp.listed || !c || s {
		t.Fatalf("community proof on ganache: listed %v, isCommunityListed %v, isListed %v", cp.listed, c, s)
	}
	ts.do(t, "POST", "/v1/admin/community/delist", admin, map[string]any{"address": suspect, "chain": "ethereum", "reason": "test"}).must(t, 200)
	waitSynced(3)
	if c, _ := community(); c {
		t.Fatal("a delisted community address still verifies on ganache")
	}

	eth, err := os.ReadFile(list)
	if err != nil {
		t.Fatal(err)
	}
	delist(t, list, eth, tornado)
	ts.do(t, "POST", "/v1/admin/ingest", admin, nil).must(t, 200)
	waitSynced(4)
	if onChain(p1) {
		t.Fatal("tornado's old proof still verifies after the update")
	}
	// After the delisting, tornado is proven clear on chain; the clear
	// proof of version 1 (a gap of an older exclusion tree) is stale.
	if !notSanctioned(clearProof(tornado)) {
		t.Fatal("isNotSanctioned refuses the delisted address's proof on ganache")
	}
	if notSanctioned(clear1) {
		t.Fatal("a clear proof of an older version is accepted on ganache")
	}
	if lv, err := bind.Call(bound, nil, v.PackListVersion(), v.UnpackListVersion); err != nil || lv != 4 {
		t.Fatalf("listVersion() = %d, %v", lv, err)
	}
}

// gap is isNotSanctioned's arguments: an account and the gap leaf (low,
// high) with its proof that say it is clear.
type gap struct {
	account, low, high common.Address
	proof              [][32]byte
}

// clearProofOf is the exclusionProof GET /v1/compliance/merkle-proof
// serves for an unlisted EVM address.
func clearProofOf(t *testing.T, ts *testServer, key, addr string) gap {
	t.Helper()
	r := ts.do(t, "GET", "/v1/compliance/merkle-proof?chain=ethereum&address="+addr, key, nil).must(t, 200)
	e, ok := r.JSON["exclusionProof"].(map[string]any)
	if !ok {
		t.Fatalf("no exclusionProof for %s: %s", addr, r.Body)
	}
	g := gap{account: common.HexToAddress(addr), low: common.HexToAddress(e["low"].(string)), high: common.HexToAddress(e["high"].(string))}
	for _, h := range e["proof"].([]any) {
		g.proof = append(g.proof, hexBytes32(t, h.(string)))
	}
	return g
}

// isNotSanctioned asks the contract whether g proves its account clear.
func isNotSanctioned(t *testing.T, bound *bind.BoundContract, g gap) bool {
	t.Helper()
	v := evm.NewVerifier()
	ok, err := bind.Call(bound, nil, v.PackIsNotSanctioned(g.account, g.low, g.high, g.proof), v.UnpackIsNotSanctioned)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

// ganacheKeyFile writes the key of ganache's deterministic account i (one
// of the evmtest.Key* constants) to a key file, as cairn reads it.
// deployOnGanache deploys the verifier on the ganache of the tests with
// `cairn contract deploy` and deterministic account key (one of the
// evmtest.Key* constants); it returns the node's URL, the key file and
// the contract.
func deployOnGanache(t *testing.T, key int) (url, keyFile string, contract common.Address) {
	t.Helper()
	url = evmtest.URL(t)
	_, keyFile = ganacheKeyFile(t, key)
	code, out, errs := runCmd("contract", "deploy", "--evm-rpc-url", url, "--evm-key-file", keyFile)
	if code != 0 || !common.IsHexAddress(strings.TrimSpace(out)) {
		t.Fatalf("contract deploy: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	return url, keyFile, common.HexToAddress(strings.TrimSpace(out))
}

// waitGanacheSynced waits until the service reports version synced, or
// fails after 30 s.
func waitGanacheSynced(t *testing.T, ts *testServer, version uint64) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		st := anchorStatus(t, ts)
		if st.ListVersion == version && st.Status == "synced" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("anchor %+v, want version %d synced", st, version)
		}
	}
}

func ganacheKeyFile(t *testing.T, i int) (*ecdsa.PrivateKey, string) {
	t.Helper()
	key, hexKey := evmtest.Key(t, i)
	keyFile := filepath.Join(t.TempDir(), "evm-key")
	if err := os.WriteFile(keyFile, []byte(hexKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return key, keyFile
}
