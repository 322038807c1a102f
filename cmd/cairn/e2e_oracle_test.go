package main

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/chain"
	"github.com/cairn-dev/cairn/chain/evm"
	"github.com/cairn-dev/cairn/client"
	"github.com/cairn-dev/cairn/screening"
	"github.com/ethereum/go-ethereum/common"
)

// oracleState is merkle-root's oracle object.
type oracleState struct {
	status      string
	listVersion float64
	pending     float64
	txHash      string
}

func getOracle(t *testing.T, ts *testServer, key string) oracleState {
	t.Helper()
	r := ts.do(t, "GET", "/v1/compliance/merkle-root", key, nil).must(t, 200)
	o := r.JSON["oracle"].(map[string]any)
	s := oracleState{status: o["status"].(string)}
	s.listVersion, _ = o["listVersion"].(float64)
	s.pending, _ = o["pending"].(float64)
	s.txHash, _ = o["txHash"].(string)
	return s
}

// waitOracle polls merkle-root until ok holds of its oracle object,
// calling mine (a block) between polls when it is set; 60 s at most.
func waitOracle(t *testing.T, ts *testServer, key string, mine func(), ok func(oracleState) bool) oracleState {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		o := getOracle(t, ts, key)
		if ok(o) {
			return o
		}
		if o.status == chain.OracleFailed || time.Now().After(deadline) {
			t.Fatalf("oracle %+v", o)
		}
		if mine != nil {
			mine()
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// listedEVM reads the EVM addresses of a list file, lower case.
func listedEVM(t *testing.T, content []byte) []string {
	t.Helper()
	var out []string
	for _, l := range strings.Split(string(content), "\n") {
		if canon, st := screening.Normalize(screening.EVM, l); st != screening.StatusInvalid && strings.TrimSpace(l) != "" {
			out = append(out, canon)
		}
	}
	return out
}

// mine mines a block.
func (c *simChain) mine() { c.sim.Commit() }

func (c *simChain) oracle(t *testing.T, addr string) bool {
	v := evm.NewVerifier()
	return call(t, c, v.PackIsSanctioned0(common.HexToAddress(addr)), v.UnpackIsSanctioned0)
}

// oracleRecords are the store's oracle records of the chain's contract.
func oracleRecords(t *testing.T, ts *testServer, c *simChain) []cairn.Anchor {
	t.Helper()
	rs, err := ts.m.core.ListAnchors(ctx, evm.Target(1337, c.contract)+"/oracle", 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// TestE2EOracleSimulated: with anchoring on, the service keeps the
// contract's isSanctioned(address) in step: after the first version is
// synced every listed EVM address of the fixture list is sanctioned and
// no other, reached in several batches (a small gas bound); a restart
// while a batch is in flight broadcasts that batch again and signs no
// other; a version that delists one address and lists another is
// followed (removed and added); merkle-root shows the oracle syncing,
// then synced with nothing pending, as does the Go client.
func TestE2EOracleSimulated(t *testing.T) {
	c := newSimChain(t)
	base, list, eth := complianceList(t)
	listed := listedEVM(t, eth)
	cfg, setup := c.config(base)
	small := func(m *Main) { m.EVMOracleMaxGas = 3_000_000 }
	ts := startServer(t, cfg, setup, small)
	a := ts.register(t, "")

	waitAnchor(t, ts, c, 1, chain.AnchorSynced, true)
	// The first batch is in flight (nothing mined since): stop and start
	// again.
	inFlight := waitOracle(t, ts, a.Key, nil, func(o oracleState) bool { return o.txHash != "" })
	if inFlight.status != chain.OracleSyncing || inFlight.listVersion != 1 || inFlight.pending == 0 {
		t.Fatalf("oracle while syncing %+v", inFlight)
	}
	ts.stop()
	ts = startServer(t, cfg, setup, small)
	if o := getOracle(t, ts, a.Key); o.txHash != inFlight.txHash {
		t.Fatalf("after the restart the oracle shows %+v, before %+v", o, inFlight)
	}
	waitOracle(t, ts, a.Key, c.mine, func(o oracleState) bool {
		return o.status == chain.OracleSynced && o.listVersion == 1 && o.pending == 0 && o.txHash == ""
	})
	for _, addr := range listed {
		if !c.oracle(t, addr) {
			t.Fatalf("listed %s is not sanctioned on chain", addr)
		}
	}
	unlisted := "0x000000000000000000000000000000000000dead"
	if c.oracle(t, unlisted) || c.oracle(t, evm.Address(c.owner).Hex()) {
		t.Fatal("an unlisted address is sanctioned on chain")
	}
	// One transaction per batch, none twice: the owner sent the
	// deployment, setRoots and the batches, each of which marked new
	// addresses only, all of them together the list.
	rs := oracleRecords(t, ts, c)
	if len(rs) != 1 || rs[0].Batches < 2 || len(rs[0].PrevTxHashes) != rs[0].Batches || rs[0].PrevTxHashes[0] != inFlight.txHash {
		t.Fatalf("oracle records %+v", rs)
	}
	if n := c.nonce(t); n != uint64(2+rs[0].Batches) {
		t.Fatalf("owner nonce %d, want 2 + %d batches", n, rs[0].Batches)
	}
	marked := 0
	v := evm.NewVerifier()
	for _, h := range rs[0].PrevTxHashes {
		rcpt, err := c.client.TransactionReceipt(ctx, common.HexToHash(h))
		if err != nil || rcpt.Status != 1 || len(rcpt.Logs) != 1 {
			t.Fatalf("batch %s: %+v %v", h, rcpt, err)
		}
		ev, err := v.UnpackSanctionedAddressesAddedEvent(rcpt.Logs[0])
		if err != nil {
			t.Fatal(err)
		}
		marked += len(ev.Addrs)
	}
	if marked != len(listed) {
		t.Fatalf("the batches marked %d addresses, the list has %d", marked, len(listed))
	}

	// A version that delists tornado and lists another address.
	delist(t, list, eth, tornado)
	added := "0x1111111111111111111111111111111111111111"
	f, err := os.OpenFile(list, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(added + "\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	ing := ts.do(t, "POST", "/v1/admin/ingest", admin, nil).must(t, 200)
	next := ing.num("listVersion")
	waitAnchor(t, ts, c, uint64(next), chain.AnchorSynced, true)
	waitOracle(t, ts, a.Key, c.mine, func(o oracleState) bool {
		return o.status == chain.OracleSynced && o.listVersion == next && o.pending == 0
	})
	if c.oracle(t, tornado) || !c.oracle(t, added) || !c.oracle(t, listed[len(listed)-1]) {
		t.Fatal("the oracle did not follow the new version")
	}
	cl := client.New(ts.base, a.Key, client.WithStrictDecoding())
	root, err := cl.GetMerkleRoot(ctx)
	if err != nil || root.Oracle.Status != chain.OracleSynced || root.Oracle.ListVersion == nil || float64(*root.Oracle.ListVersion) != next ||
		root.Oracle.Pending != 0 {
		t.Fatalf("client: %+v %v", root, err)
	}
}

// TestE2EOracleOff: --evm-oracle=false anchors the roots and leaves the
// oracle storage alone; merkle-root says it is disabled.
func TestE2EOracleOff(t *testing.T) {
	c := newSimChain(t)
	base, _ := complianceConfig(t)
	cfg, setup := c.config(base)
	cfg.EVMOracle = false
	ts := startServer(t, cfg, setup)
	a := ts.register(t, "")
	waitAnchor(t, ts, c, 1, chain.AnchorSynced, true)
	for range 5 {
		c.sim.Commit()
		time.Sleep(20 * time.Millisecond)
	}
	if o := getOracle(t, ts, a.Key); o.status != chain.OracleDisabled || c.nonce(t) != 2 || c.oracle(t, tornado) {
		t.Fatalf("oracle %+v, owner nonce %d", o, c.nonce(t))
	}
}

// TestE2EOracleFromBlock: --evm-oracle-from-block reaches the oracle: one
// past the chain's confirmed blocks (a typo) leaves the storage alone, and
// merkle-root says why.
func TestE2EOracleFromBlock(t *testing.T) {
	c := newSimChain(t)
	base, _ := complianceConfig(t)
	cfg, setup := c.config(base)
	cfg.EVMOracleFromBlock = 1_000_000
	ts := startServer(t, cfg, setup)
	a := ts.register(t, "")
	waitAnchor(t, ts, c, 1, chain.AnchorSynced, true)
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(15 * time.Millisecond) {
		r := ts.do(t, "GET", "/v1/compliance/merkle-root", a.Key, nil).must(t, 200)
		o := r.JSON["oracle"].(map[string]any)
		if o["status"] == chain.OracleFailed {
			if msg, _ := o["error"].(string); !strings.Contains(msg, "first block 1000000 is past the newest confirmed block") {
				t.Fatalf("oracle %+v", o)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("oracle %+v, want failed", o)
		}
		c.sim.Commit()
	}
	if c.nonce(t) != 2 || c.oracle(t, tornado) {
		t.Fatalf("owner nonce %d: the oracle sent a batch", c.nonce(t))
	}
}
