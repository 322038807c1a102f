package main

import (
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
// anchors each list version; the proofs the HTTP API serves verify with a
// plain eth_call, and the old ones stop verifying after an update.
func TestE2EGanache(t *testing.T) {
	url := evmtest.URL(t)
	_, hexKey := evmtest.Key(t, evmtest.KeyE2E)
	keyFile := filepath.Join(t.TempDir(), "evm-key")
	if err := os.WriteFile(keyFile, []byte(hexKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCmd("contract", "deploy", "--evm-rpc-url", url, "--evm-key-file", keyFile)
	if code != 0 || !common.IsHexAddress(strings.TrimSpace(out)) {
		t.Fatalf("contract deploy: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	contract := common.HexToAddress(strings.TrimSpace(out))
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
	a := ts.register("")
	waitSynced := func(version uint64) {
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

	eth, err := os.ReadFile(list)
	if err != nil {
		t.Fatal(err)
	}
	delist(t, list, eth, tornado)
	ts.do("POST", "/v1/admin/ingest", admin, nil).must(t, 200)
	waitSynced(2)
	if onChain(p1) {
		t.Fatal("tornado's old proof still verifies after the update")
	}
	if lv, err := bind.Call(bound, nil, v.PackListVersion(), v.UnpackListVersion); err != nil || lv != 2 {
		t.Fatalf("listVersion() = %d, %v", lv, err)
	}
}
