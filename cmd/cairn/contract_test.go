package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/chain/evm"
	"github.com/cairn-dev/cairn/chain/evm/evmtest"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
)

func writeKeyFile(t *testing.T, mode os.FileMode) string {
	t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "key")
	if err := os.WriteFile(path, []byte(hex.EncodeToString(crypto.FromECDSA(k))), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
	return path
}

func runCmd(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	code := Run(ctx, args, &out, &errb, func(string) string { return "" })
	return code, out.String(), errb.String()
}

// TestContractDeployErrors: the deploy command's refusals, before and
// without any chain; the RPC URL's credentials never reach the output.
func TestContractDeployErrors(t *testing.T) {
	key := writeKeyFile(t, 0o600)
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"NoSubcommand", []string{"contract"}, 2, "cairn contract deploy"},
		{"UnknownSubcommand", []string{"contract", "destroy"}, 2, "cairn contract deploy"},
		{"NoFlags", []string{"contract", "deploy"}, 2, "--evm-rpc-url and --evm-key-file are required"},
		{"NoKey", []string{"contract", "deploy", "--evm-rpc-url", "http://127.0.0.1:1"}, 2, "required"},
		{"InsecureKey", []string{"contract", "deploy", "--evm-rpc-url", "http://127.0.0.1:1", "--evm-key-file", writeKeyFile(t, 0o644)}, 1, "chmod 600"},
		{"NoScheme", []string{"contract", "deploy", "--evm-rpc-url", "127.0.0.1:1", "--evm-key-file", key}, 1, "no scheme"},
		{"BadUpdater", []string{"contract", "deploy", "--evm-rpc-url", "http://127.0.0.1:1", "--evm-key-file", key, "--updater", "0x12"}, 2, "not a 0x address"},
		{"Unreachable", []string{"contract", "deploy", "--evm-rpc-url", "http://user:hunter2@127.0.0.1:1/rpc", "--evm-key-file", key}, 1, "connection refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCmd(tc.args...)
			if code != tc.code || !strings.Contains(errs, tc.want) || out != "" {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit %d and %q", code, out, errs, tc.code, tc.want)
			}
			if strings.Contains(errs, "hunter2") {
				t.Fatalf("stderr shows the RPC URL's password: %q", errs)
			}
		})
	}
}

// TestServeAnchorFlags: anchoring is off unless --evm-rpc-url is given,
// and half a configuration is refused at start rather than ignored.
func TestServeAnchorFlags(t *testing.T) {
	key := writeKeyFile(t, 0o600)
	const contract = "0x5FbDB2315678afecb367f032d93F642f64180aa3"
	for _, tc := range []struct {
		name string
		set  func(*Config)
		want string
	}{
		{"ContractWithoutURL", func(c *Config) { c.EVMContract = contract }, "need --evm-rpc-url"},
		{"URLWithoutContract", func(c *Config) { c.EVMRPCURL, c.EVMKeyFile = "http://127.0.0.1:1", key }, "needs --evm-contract"},
		{"BadContract", func(c *Config) { c.EVMRPCURL, c.EVMKeyFile, c.EVMContract = "http://127.0.0.1:1", key, "0x12" }, "not a 0x address"},
		{"InsecureKey", func(c *Config) {
			c.EVMRPCURL, c.EVMKeyFile, c.EVMContract, c.EVMChainID = "http://127.0.0.1:1", writeKeyFile(t, 0o640), contract, 1
		}, "chmod 600"},
		{"NoChainIDNodeDown", func(c *Config) {
			c.EVMRPCURL, c.EVMKeyFile, c.EVMContract = "http://u:hunter2@127.0.0.1:1", key, contract
		}, "give the chain id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(t, t.TempDir())
			tc.set(&cfg)
			m := NewMain(cfg, &bytes.Buffer{}, &bytes.Buffer{})
			err := m.Open(context.Background())
			_ = m.Close()
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "hunter2") {
				t.Fatalf("Open: %v, want an error saying %q", err, tc.want)
			}
		})
	}
	// With the chain id given, a node that is down does not stop the
	// service, and never blocks screening or ingestion: the anchor fails
	// and retries, without showing the RPC URL.
	cfg, _ := complianceConfig(t)
	cfg.EVMRPCURL, cfg.EVMKeyFile, cfg.EVMContract, cfg.EVMChainID = "http://u:hunter2@127.0.0.1:1/rpc", key, contract, 1
	cfg.EVMPollInterval = 10 * time.Millisecond
	ts := startServer(t, cfg)
	if ts.m.chainAnchorer() == nil {
		t.Fatal("anchoring configured, but the front end would get no anchorer")
	}
	a := ts.register(t, "")
	screen := ts.do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": []map[string]any{{"address": tornado, "chain": "ethereum"}}}).must(t, 200)
	if screen.JSON["results"].([]any)[0].(map[string]any)["status"] != "sanctioned" {
		t.Fatalf("screening with the chain down: %s", screen.Body)
	}
	if ing := ts.do(t, "POST", "/v1/admin/ingest", admin, nil).must(t, 200); ing.num("listVersion") != 2 {
		t.Fatalf("ingest with the chain down: %s", ing.Body)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		st := anchorStatus(t, ts)
		if st.Status == "failed" && strings.Contains(st.Error, "connection refused") {
			if st.ChainID() != 1 || st.Contract() != strings.ToLower(contract) || strings.Contains(st.Error, "hunter2") || st.TxHash != "" {
				t.Fatalf("anchor status with the node down: %+v", st)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("anchor status with the node down: %+v", st)
		}
	}
	if strings.Contains(ts.logs.String(), "hunter2") {
		t.Fatal("the logs show the RPC URL's password")
	}
}

// TestAnchoringOff: without --evm-rpc-url there is no anchorer, and the
// front end gets a nil interface (it then shows "disabled").
func TestAnchoringOff(t *testing.T) {
	ts := startServer(t, testConfig(t, t.TempDir()))
	if ts.m.anchorer != nil || ts.m.chainAnchorer() != nil {
		t.Fatal("an anchorer exists with anchoring off")
	}
}

// TestGanacheDeployUpdater: `cairn contract deploy --updater ADDR` grants
// ADDR the updater role once the contract is mined.
func TestGanacheDeployUpdater(t *testing.T) {
	url := evmtest.URL(t)
	_, keyFile := ganacheKeyFile(t, evmtest.KeyDeploy)
	hot := "0x1df62f291b2e969fb0849d99d9ce41e2f137006e"
	code, out, errs := runCmd("contract", "deploy", "--evm-rpc-url", url, "--evm-key-file", keyFile, "--updater", hot)
	if code != 0 || !common.IsHexAddress(strings.TrimSpace(out)) || !strings.Contains(errs, "granted the updater role to") {
		t.Fatalf("contract deploy --updater: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	client, err := ethclient.Dial(url)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	v := evm.NewVerifier()
	bound := v.Instance(client, common.HexToAddress(strings.TrimSpace(out)))
	for addr, want := range map[string]bool{hot: true, "0x28a8746e75304c0780e011bed21c72cd78cd535e": false} {
		if ok, err := bind.Call(bound, nil, v.PackIsUpdater(common.HexToAddress(addr)), v.UnpackIsUpdater); err != nil || ok != want {
			t.Fatalf("isUpdater(%s) = %v, %v; want %v", addr, ok, err, want)
		}
	}
}
