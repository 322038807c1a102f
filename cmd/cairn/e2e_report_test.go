package main

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/chain/evm/evmtest"
	"github.com/cairn-dev/cairn/internal/browsertest"
	"github.com/chromedp/chromedp"
)

// TestE2EReportChainGanache: with anchoring on a real JSON-RPC node
// (ganache) and --public-evm-rpc-url pointing at it, the proof report of a
// screening, opened in Chromium, shows the anchor of its list version and
// reads the contract's roots by eth_call from the browser: every check
// passes, the chain's included. A document whose exclusion root was
// changed on the way fails the chain check too (and the signature).
func TestE2EReportChainGanache(t *testing.T) {
	url, keyFile, addr := deployOnGanache(t, evmtest.KeyReport)
	contract := strings.ToLower(addr.Hex())
	cfg, list := complianceConfig(t)
	cfg.EVMRPCURL, cfg.EVMContract, cfg.EVMKeyFile, cfg.EVMConfirmations, cfg.EVMPollInterval = url, contract, keyFile, 1, 100*time.Millisecond
	cfg.EVMOracle = false
	cfg.PublicEVMRPCURL = url
	ts := startServer(t, cfg)
	waitSynced := func(v uint64) { t.Helper(); waitGanacheSynced(t, ts, v) }
	waitSynced(1)
	a := ts.register(t, "")
	r := ts.do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": []map[string]any{
		{"address": tornado, "chain": "ethereum"}, {"address": "0x000000000000000000000000000000000000dEaD", "chain": "ethereum"},
	}}).must(t, 200)
	path := "/v1/compliance/proofs/" + r.JSON["proof"].(map[string]any)["screeningId"].(string)

	ctx := browsertest.New(t)
	verdict, checks := browsertest.Report(t, ctx, ts.base+path)
	if c := checks["chain"]; c.Verdict != "pass" || !strings.Contains(c.Detail, contract) || !strings.Contains(c.Detail, "list version 1") {
		t.Errorf("chain check: %+v", c)
	}
	if verdict != "pass" {
		t.Errorf("verdict %q: %+v", verdict, checks)
	}
	anchor := browsertest.Run(t, ctx, chromedp.Text(chromedp.CSS("#anchor")))
	st := anchorStatus(t, ts)
	if !strings.Contains(anchor, contract) || !strings.Contains(anchor, st.TxHash) || !strings.Contains(anchor, "1337") {
		t.Errorf("the anchor shown: %q, want contract %s, transaction %s, chain 1337", anchor, contract, st.TxHash)
	}
	browsertest.SaveScreenshot(t, ctx, "../../docs/proof-report-chain.png")

	altered := browsertest.TamperProxy(t, ts.base, browsertest.IsProofJSON, func(b []byte) []byte {
		s := string(b)
		i := strings.Index(s, `"exclusionRoot":"0x`) + len(`"exclusionRoot":"0x`)
		return []byte(s[:i] + "ffff" + s[i+4:])
	})
	verdict, checks = browsertest.Report(t, ctx, altered+path)
	if c := checks["chain"]; verdict != "fail" || c.Verdict != "fail" || !strings.Contains(c.Detail, "is not the contract's") {
		t.Errorf("chain check of an altered exclusion root: %q %+v", verdict, c)
	}

	// Once a newer version is anchored, the contract's current roots are
	// another version's: the page reads those of version 1 at the block
	// of its anchoring.
	block := anchorStatus(t, ts).BlockNumber
	eth, err := os.ReadFile(list)
	if err != nil {
		t.Fatal(err)
	}
	delist(t, list, eth, tornado)
	ts.do(t, "POST", "/v1/admin/ingest", admin, nil).must(t, 200)
	waitSynced(2)
	verdict, checks = browsertest.Report(t, ctx, ts.base+path)
	if c := checks["chain"]; verdict != "pass" || c.Verdict != "pass" || !strings.Contains(c.Detail, fmt.Sprintf("block %d", block)) {
		t.Errorf("chain check of version 1 after version 2: %q %+v", verdict, c)
	}
}
