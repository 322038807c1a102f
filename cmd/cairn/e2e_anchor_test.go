package main

import (
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/chain"
	"github.com/cairn-dev/cairn/chain/evm"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
)

// simChain is go-ethereum's in-process chain with the verifier deployed
// by owner, whose key is in keyFile (mode 0600).
type simChain struct {
	sim      *simulated.Backend
	client   simulated.Client
	owner    *ecdsa.PrivateKey
	keyFile  string
	contract common.Address
}

var ctx = context.Background()

func newSimChain(t *testing.T) *simChain {
	t.Helper()
	owner, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	funds := new(big.Int).Exp(big.NewInt(10), big.NewInt(20), nil)
	c := &simChain{owner: owner, sim: simulated.NewBackend(types.GenesisAlloc{evm.Address(owner): {Balance: funds}})}
	t.Cleanup(func() { c.sim.Close() })
	c.client = c.sim.Client()
	c.keyFile = filepath.Join(t.TempDir(), "evm-key")
	if err := os.WriteFile(c.keyFile, []byte("0x"+hex.EncodeToString(crypto.FromECDSA(owner))+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		var err error
		c.contract, _, err = evm.Deploy(ctx, c.client, owner, big.NewInt(1337))
		done <- err
	}()
	for deployed := false; !deployed; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			deployed = true
		case <-time.After(10 * time.Millisecond):
			c.sim.Commit()
		}
	}
	return c
}

// config points cfg at the chain: the service dials nothing, Main is
// handed the in-process backend.
func (c *simChain) config(cfg Config) (Config, func(*Main)) {
	cfg.EVMRPCURL = "in-process"
	cfg.EVMChainID = 1337
	cfg.EVMContract = c.contract.Hex()
	cfg.EVMKeyFile = c.keyFile
	cfg.EVMConfirmations = 2
	cfg.EVMPollInterval = 20 * time.Millisecond
	return cfg, func(m *Main) { m.EVMBackend = c.client }
}

// nonce is how many transactions the owner had mined: the deployment and
// one per anchored version.
func (c *simChain) nonce(t *testing.T) uint64 {
	t.Helper()
	n, err := c.client.NonceAt(ctx, evm.Address(c.owner), nil)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// call runs a view function of the verifier.
func call[T any](t *testing.T, c *simChain, data []byte, unpack func([]byte) (T, error)) T {
	t.Helper()
	v, err := bind.Call(evm.NewVerifier().Instance(c.client, c.contract), nil, data, unpack)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// waitAnchor mines a block every few milliseconds until the service
// reports version v with the status, or fails after 20 s.
func waitAnchor(t *testing.T, ts *testServer, c *simChain, v uint64, status string, mine bool) cairn.Anchor {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		st := anchorStatus(t, ts)
		if st.ListVersion == v && st.Status == status {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("anchor status %+v, want %s of version %d", st, status, v)
		}
		if mine {
			c.sim.Commit()
		}
		time.Sleep(15 * time.Millisecond)
	}
}

func anchorStatus(t *testing.T, ts *testServer) cairn.Anchor {
	t.Helper()
	st, err := ts.m.anchorer.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// proof is what GET /v1/compliance/merkle-proof answers, decoded.
type proof struct {
	listed bool
	leaf   [32]byte
	root   [32]byte
	proof  [][32]byte
	canon  string
}

func getProof(t *testing.T, ts *testServer, key, addr, chainName string) proof {
	t.Helper()
	r := ts.do(t, "GET", "/v1/compliance/merkle-proof?chain="+chainName+"&address="+addr, key, nil).must(t, 200)
	p := proof{listed: r.JSON["listed"] == true, leaf: hexBytes32(t, r.str("leaf")), root: hexBytes32(t, r.str("root")),
		canon: r.str("canonicalAddress")}
	for _, h := range r.JSON["proof"].([]any) {
		p.proof = append(p.proof, hexBytes32(t, h.(string)))
	}
	return p
}

// checkOnChain asks every single-proof view function about p.
func checkOnChain(t *testing.T, c *simChain, p proof, evmAccount bool, want bool) {
	t.Helper()
	v := evm.NewVerifier()
	got := map[string]bool{
		"verify":   call(t, c, v.PackVerify(p.proof, p.leaf), v.UnpackVerify),
		"isListed": call(t, c, v.PackIsListed("evm", p.canon, p.proof), v.UnpackIsListed),
	}
	if evmAccount {
		got["isSanctioned"] = call(t, c, v.PackIsSanctioned(common.HexToAddress(p.canon), p.proof), v.UnpackIsSanctioned)
	}
	for fn, ok := range got {
		if ok != want {
			t.Errorf("%s(%s) = %v on chain, want %v", fn, p.canon, ok, want)
		}
	}
}

// TestE2EAnchorSimulated: the service anchors each list version on the
// in-process chain; the proofs it serves over HTTP verify on chain with
// every view function, and stop verifying once a newer version replaces
// the root; a restart while a transaction is in flight sends no second one.
func TestE2EAnchorSimulated(t *testing.T) {
	c := newSimChain(t)
	base, list, eth := complianceList(t)
	cfg, setup := c.config(base)
	cfg.EVMOracle = false // it counts the anchoring transactions (the oracle's: e2e_oracle_test.go)
	ts := startServer(t, cfg, setup)
	a := ts.register(t, "")

	st := waitAnchor(t, ts, c, 1, chain.AnchorSynced, true)
	root := ts.do(t, "GET", "/v1/compliance/merkle-root", a.Key, nil).must(t, 200)
	onChain := call(t, c, evm.NewVerifier().PackRoots(), evm.NewVerifier().UnpackRoots)
	if onChain.ListVersion != 1 || onChain.SanctionsRoot != hexBytes32(t, root.str("root")) || chain.RootsOf(st).Sanctions != onChain.SanctionsRoot ||
		st.TxHash == "" || st.BlockNumber == 0 || st.ChainID() != 1337 || st.Contract() != strings.ToLower(c.contract.Hex()) {
		t.Fatalf("after version 1: status %+v, contract %+v, served root %s", st, onChain, root.str("root"))
	}

	stillListed := strings.TrimSpace(strings.Split(string(eth), "\n")[0])
	unlisted := "0x000000000000000000000000000000000000dEaD"
	tornadoV1 := getProof(t, ts, a.Key, tornado, "ethereum")
	keptV1 := getProof(t, ts, a.Key, stillListed, "ethereum")
	none := getProof(t, ts, a.Key, unlisted, "ethereum")
	if !tornadoV1.listed || !keptV1.listed || none.listed || tornadoV1.root != onChain.SanctionsRoot {
		t.Fatal("the fixture addresses are not listed as expected")
	}
	checkOnChain(t, c, tornadoV1, true, true)
	checkOnChain(t, c, keptV1, true, true)
	checkOnChain(t, c, none, true, false)
	btc := getProof(t, ts, a.Key, "12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h", "bitcoin")
	v := evm.NewVerifier()
	if !btc.listed || !call(t, c, v.PackIsListed("bitcoin", btc.canon, btc.proof), v.UnpackIsListed) ||
		call(t, c, v.PackIsListed("evm", btc.canon, btc.proof), v.UnpackIsListed) {
		t.Fatalf("bitcoin proof on chain (listed %v)", btc.listed)
	}
	// A multiproof from the batch endpoint.
	batch := ts.do(t, "POST", "/v1/compliance/merkle-proof/batch", a.Key, map[string]any{"multiproof": true, "addresses": []map[string]any{
		{"address": tornado, "chain": "ethereum"}, {"address": stillListed, "chain": "ethereum"}}}).must(t, 200)
	mp := batch.JSON["multiproof"].(map[string]any)
	var mproof, leaves [][32]byte
	var flags []bool
	for _, h := range mp["proof"].([]any) {
		mproof = append(mproof, hexBytes32(t, h.(string)))
	}
	for _, h := range mp["leaves"].([]any) {
		leaves = append(leaves, hexBytes32(t, h.(string)))
	}
	for _, f := range mp["proofFlags"].([]any) {
		flags = append(flags, f.(bool))
	}
	if !call(t, c, v.PackMultiProofVerify(mproof, flags, leaves), v.UnpackMultiProofVerify) {
		t.Fatalf("the batch multiproof does not verify on chain: %s", batch.Body)
	}

	// Version 2 delists tornado. Stop the service while its transaction
	// waits to be mined and start it again: the same transaction is mined,
	// no second one is signed. The restart ingests the sources again
	// (version 3, the same roots): nothing is sent for it.
	delist(t, list, eth, tornado)
	ts.do(t, "POST", "/v1/admin/ingest", admin, nil).must(t, 200)
	inFlight := waitAnchor(t, ts, c, 2, chain.AnchorSubmitted, false)
	ts.stop()
	ts = startServer(t, cfg, setup)
	if st := anchorStatus(t, ts); st.TxHash != inFlight.TxHash {
		t.Fatalf("after the restart the record holds %s, before %s", st.TxHash, inFlight.TxHash)
	}
	st = waitAnchor(t, ts, c, 2, chain.AnchorSynced, true)
	waitVersion(t, ts, a.Key, 3)
	for range 3 {
		c.sim.Commit()
	}
	time.Sleep(100 * time.Millisecond) // several anchoring rounds
	if st := anchorStatus(t, ts); st.ListVersion != 2 || st.Status != chain.AnchorSynced {
		t.Fatalf("after version 3 with version 2's roots: %+v", st)
	}
	if st.TxHash != inFlight.TxHash || c.nonce(t) != 3 {
		t.Fatalf("synced by %s (owner nonce %d), want the in-flight %s and nonce 3", st.TxHash, c.nonce(t), inFlight.TxHash)
	}

	// The old proofs fail against the new root; new proofs verify.
	checkOnChain(t, c, tornadoV1, true, false)
	checkOnChain(t, c, keptV1, true, false)
	tornadoV2 := getProof(t, ts, a.Key, tornado, "ethereum")
	keptV2 := getProof(t, ts, a.Key, stillListed, "ethereum")
	if tornadoV2.listed || !keptV2.listed {
		t.Fatal("version 2 should delist only tornado")
	}
	checkOnChain(t, c, tornadoV2, true, false)
	checkOnChain(t, c, keptV2, true, true)
}

// waitVersion waits until the service serves list version v.
func waitVersion(t *testing.T, ts *testServer, key string, v float64) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		r := ts.do(t, "GET", "/v1/compliance/merkle-root", key, nil).must(t, 200)
		if r.num("listVersion") == v {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("list version %v, want %v", r.num("listVersion"), v)
		}
	}
}

// delist writes the list file without addr.
func delist(t *testing.T, list string, content []byte, addr string) {
	t.Helper()
	var kept []string
	for _, l := range strings.Split(strings.TrimSpace(string(content)), "\n") {
		if !strings.EqualFold(strings.TrimSpace(l), addr) {
			kept = append(kept, l)
		}
	}
	if err := os.WriteFile(list, []byte(strings.Join(kept, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}
