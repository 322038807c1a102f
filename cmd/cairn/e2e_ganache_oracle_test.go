package main

import (
	"context"
	"math/big"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/chain"
	"github.com/cairn-dev/cairn/chain/evm"
	"github.com/cairn-dev/cairn/chain/evm/evmtest"
	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
)

// ganacheOracle is the deployed contract of TestE2EGanacheOracle and the
// node it is on.
type ganacheOracle struct {
	t      *testing.T
	client *ethclient.Client
	bound  *bind.BoundContract
	v      *evm.Verifier
	addr   common.Address
}

// mine mines one block (evm_mine): the ganache of .ci/run mines only when
// a transaction arrives, so confirmations come from here.
func (g *ganacheOracle) mine() {
	if err := g.client.Client().Call(nil, "evm_mine"); err != nil {
		g.t.Fatalf("evm_mine: %v", err)
	}
}

func (g *ganacheOracle) sanctioned(addr string) bool {
	g.t.Helper()
	ok, err := bind.Call(g.bound, nil, g.v.PackIsSanctioned0(common.HexToAddress(addr)), g.v.UnpackIsSanctioned0)
	if err != nil {
		g.t.Fatal(err)
	}
	return ok
}

// events are the accounts of the contract's SanctionedAddressesAdded and
// SanctionedAddressesRemoved events in blocks from..to, lower case.
func (g *ganacheOracle) events(from, to uint64) (added, removed []string) {
	g.t.Helper()
	added0, removed0 := crypto.Keccak256Hash([]byte("SanctionedAddressesAdded(address[])")), crypto.Keccak256Hash([]byte("SanctionedAddressesRemoved(address[])"))
	logs, err := g.client.FilterLogs(context.Background(), ethereum.FilterQuery{FromBlock: new(big.Int).SetUint64(from), ToBlock: new(big.Int).SetUint64(to),
		Addresses: []common.Address{g.addr}, Topics: [][]common.Hash{{added0, removed0}}})
	if err != nil {
		g.t.Fatal(err)
	}
	lower := func(as []common.Address) (out []string) {
		for _, a := range as {
			out = append(out, strings.ToLower(a.Hex()))
		}
		return out
	}
	for i := range logs {
		if ev, err := g.v.UnpackSanctionedAddressesAddedEvent(&logs[i]); err == nil {
			added = append(added, lower(ev.Addrs)...)
		} else if ev, err := g.v.UnpackSanctionedAddressesRemovedEvent(&logs[i]); err == nil {
			removed = append(removed, lower(ev.Addrs)...)
		} else {
			g.t.Fatalf("log %+v: %v", logs[i], err)
		}
	}
	slices.Sort(added)
	slices.Sort(removed)
	return added, removed
}

func (g *ganacheOracle) head() uint64 {
	g.t.Helper()
	n, err := g.client.BlockNumber(context.Background())
	if err != nil {
		g.t.Fatal(err)
	}
	return n
}

// TestE2EGanacheOracle: the Chainalysis-compatible oracle kept in step by
// `cairn serve` on a real node, with two confirmations (blocks mined by
// the test) and --evm-oracle-from-block the deployment block `cairn
// contract deploy` printed. Once merkle-root shows the oracle synced,
// isSanctioned(address) is true for every listed EVM address and false
// for others (the owner's among them), isSanctionedVerbose says the same,
// and the SanctionedAddressesAdded events name exactly the list.
// A list version that delists three addresses and lists two is followed:
// the events name exactly those removals and additions, and isSanctioned
// follows both. Clear proofs: a forged gap (narrowed round the account,
// widened upwards, a proof hash changed) is refused; the clear proof of
// an address that the next version lists is refused once it is anchored,
// and the API serves none for it.
func TestE2EGanacheOracle(t *testing.T) {
	url := evmtest.URL(t)
	key, keyFile := ganacheKeyFile(t, evmtest.KeyE2EOracle)
	code, out, errs := runCmd("contract", "deploy", "--evm-rpc-url", url, "--evm-key-file", keyFile)
	m := regexp.MustCompile(`in block (\d+) \(for --evm-oracle-from-block\)`).FindStringSubmatch(errs)
	if code != 0 || !common.IsHexAddress(strings.TrimSpace(out)) || m == nil {
		t.Fatalf("contract deploy: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	deployBlock, _ := strconv.ParseUint(m[1], 10, 64)
	client, err := ethclient.Dial(url)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	v := evm.NewVerifier()
	g := &ganacheOracle{t: t, client: client, v: v, addr: common.HexToAddress(strings.TrimSpace(out))}
	g.bound = v.Instance(client, g.addr)

	cfg, list := complianceConfig(t)
	cfg.EVMRPCURL, cfg.EVMContract, cfg.EVMKeyFile = url, g.addr.Hex(), keyFile
	cfg.EVMConfirmations, cfg.EVMPollInterval, cfg.EVMOracle, cfg.EVMOracleFromBlock = 2, 100*time.Millisecond, true, deployBlock
	ts := startServer(t, cfg)
	a := ts.register(t, "")
	eth, err := os.ReadFile(list)
	if err != nil {
		t.Fatal(err)
	}
	listed := listedEVM(t, eth)
	slices.Sort(listed)
	owner := strings.ToLower(evm.Address(key).Hex())
	const unlisted = "0x000000000000000000000000000000000000dead"

	const newcomer = "0x2222222222222222222222222222222222222222" // listed by version 2
	waitOracle(t, ts, a.Key, g.mine, func(o oracleState) bool {
		return o.status == chain.OracleSynced && o.listVersion == 1 && o.pending == 0
	})
	synced1 := g.head()
	for _, addr := range listed {
		if !g.sanctioned(addr) {
			t.Fatalf("listed %s is not sanctioned on ganache", addr)
		}
	}
	for _, addr := range []string{unlisted, owner, strings.ToLower(g.addr.Hex()), newcomer} {
		if g.sanctioned(addr) {
			t.Fatalf("unlisted %s is sanctioned on ganache", addr)
		}
	}
	if added, removed := g.events(deployBlock, synced1); !slices.Equal(added, listed) || len(removed) != 0 {
		t.Fatalf("events of version 1: %d added, %d removed; want the %d listed added", len(added), len(removed), len(listed))
	}
	verbose := func(addr string) bool {
		t.Helper()
		ok, err := bind.Call(g.bound, nil, v.PackIsSanctionedVerbose(common.HexToAddress(addr)), v.UnpackIsSanctionedVerbose)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if !verbose(tornado) || verbose(unlisted) || verbose(newcomer) {
		t.Fatal("isSanctionedVerbose disagrees with the list")
	}

	// The newcomer's clear proof of version 1 passes; forged ones do not.
	clearNew := clearProofOf(t, ts, a.Key, newcomer)
	if !isNotSanctioned(t, g.bound, clearNew) {
		t.Fatal("isNotSanctioned refuses the API's clear proof on ganache")
	}
	acct := new(big.Int).SetBytes(clearNew.account[:])
	below, above := common.BigToAddress(new(big.Int).Sub(acct, big.NewInt(1))), common.BigToAddress(new(big.Int).Add(acct, big.NewInt(1)))
	tampered := slices.Clone(clearNew.proof)
	tampered[0][31] ^= 1
	for name, forged := range map[string]gap{
		"narrowed":   {clearNew.account, below, above, clearNew.proof},
		"widened up": {clearNew.account, clearNew.low, common.MaxAddress, clearNew.proof},
		"proof hash": {clearNew.account, clearNew.low, clearNew.high, tampered},
	} {
		if isNotSanctioned(t, g.bound, forged) {
			t.Fatalf("isNotSanctioned accepts a forged gap (%s) on ganache", name)
		}
	}

	// Version 2: three delisted, two listed.
	removed := []string{listed[0], strings.ToLower(tornado), listed[len(listed)-1]}
	newly := []string{newcomer, "0x00000000000000000000000000000000000beef0"}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(string(eth)), "\n") {
		if !slices.Contains(removed, strings.ToLower(strings.TrimSpace(l))) {
			lines = append(lines, l)
		}
	}
	if len(lines) != len(strings.Split(strings.TrimSpace(string(eth)), "\n"))-len(removed) {
		t.Fatalf("the list does not hold the three addresses to delist")
	}
	if err := os.WriteFile(list, []byte(strings.Join(append(lines, newly...), "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	v2 := ts.do(t, "POST", "/v1/admin/ingest", admin, nil).must(t, 200).num("listVersion")
	waitOracle(t, ts, a.Key, g.mine, func(o oracleState) bool {
		return o.status == chain.OracleSynced && o.listVersion == v2 && o.pending == 0
	})
	added, gone := g.events(synced1+1, g.head())
	slices.Sort(newly)
	if !slices.Equal(added, newly) || !slices.Equal(gone, sortedCopy(removed)) {
		t.Fatalf("events of version 2: added %v, removed %v; want %v and %v", added, gone, newly, removed)
	}
	for _, addr := range listed {
		if want := !slices.Contains(removed, addr); g.sanctioned(addr) != want {
			t.Fatalf("isSanctioned(%s) = %v after version 2", addr, !want)
		}
	}
	for _, addr := range newly {
		if !g.sanctioned(addr) {
			t.Fatalf("newly listed %s is not sanctioned", addr)
		}
	}
	if !verbose(newcomer) || verbose(tornado) {
		t.Fatal("isSanctionedVerbose did not follow version 2")
	}
	// The newcomer's clear proof of version 1 is stale, and the API
	// proves it listed now.
	if isNotSanctioned(t, g.bound, clearNew) {
		t.Fatal("the clear proof of a now listed address is accepted after the update")
	}
	if r := ts.do(t, "GET", "/v1/compliance/merkle-proof?chain=ethereum&address="+newcomer, a.Key, nil).must(t, 200); r.JSON["listed"] != true || r.JSON["exclusionProof"] != nil {
		t.Fatalf("merkle-proof of the newcomer: %s", r.Body)
	}
}

func sortedCopy(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}
