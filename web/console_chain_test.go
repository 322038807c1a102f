package web_test

import (
	"context"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/chain"
	"github.com/cairn-dev/cairn/chain/evm"
	"github.com/cairn-dev/cairn/chain/evm/evmtest"
	"github.com/cairn-dev/cairn/compliance"
	"github.com/cairn-dev/cairn/internal/browsertest"
	"github.com/cairn-dev/cairn/internal/wiring"
	"github.com/chromedp/chromedp"
)

// roots32 reads the four roots of a GET /v1/compliance/merkle-root answer.
func roots32(t *testing.T, r *apitest.Response) chain.Roots {
	t.Helper()
	var out chain.Roots
	for _, f := range []struct {
		dst  *[32]byte
		name string
	}{{&out.Sanctions, "sanctionsRoot"}, {&out.Community, "communityRoot"}, {&out.Exclusion, "exclusionRoot"},
		{&out.CommunityExclusion, "communityExclusionRoot"}} {
		b, err := hex.DecodeString(strings.TrimPrefix(r.Str(f.name), "0x"))
		if err != nil || len(b) != 32 {
			t.Fatalf("%s %q", f.name, r.Str(f.name))
		}
		copy(f.dst[:], b)
	}
	return out
}

// TestConsoleAnchoringOnGanache: on a real EVM node (ganache), with the
// verifier deployed and the current list version's roots anchored and
// the oracle in step, the anchoring page shows what the chain holds: the
// synced status, the contract, the transaction and its block, the oracle
// synced with nothing pending, and no error.
func TestConsoleAnchoringOnGanache(t *testing.T) {
	url := evmtest.URL(t)
	key, _ := evmtest.Key(t, evmtest.KeyConsole)
	ctx := context.Background()
	node, err := evm.Dial(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(node.Close)
	id, err := evm.CheckChainID(ctx, node, 0)
	if err != nil {
		t.Fatal(err)
	}
	contract, _, err := evm.Deploy(ctx, node, key, id)
	if err != nil {
		t.Fatal(err)
	}
	var anchorer *evm.Anchorer
	var oracle *evm.Oracle
	ts := apitest.NewServer(t, apitest.SanctionsLists(t), func(p *wiring.Parts) {
		var err error
		anchorer, err = evm.NewAnchorer(ctx, evm.Options{Backend: node, Key: key, Contract: contract, Confirmations: 1, Store: p.Core,
			Clock: p.Clock, Logger: p.Logger})
		if err == nil {
			oracle, err = evm.NewOracle(anchorer, evm.OracleOptions{Lists: compliance.OracleLists(p.Screening)})
		}
		if err != nil {
			t.Fatal(err)
		}
		p.Anchorer, p.Oracle = anchorer, oracle
	})
	// What cairn serve does at each list version: submit its roots; the
	// anchorer and the oracle then work until the chain holds them.
	root := ts.Do(t, "GET", "/v1/compliance/merkle-root", apitest.AdminToken, nil).Must(t, 200)
	if err := anchorer.Submit(ctx, uint64(root.Num("listVersion")), roots32(t, root)); err != nil {
		t.Fatal(err)
	}
	var anchor, orc map[string]any
	for guard := time.Now().Add(time.Minute); ; {
		if err := anchorer.Step(ctx); err != nil {
			t.Fatal(err)
		}
		if err := oracle.Step(ctx); err != nil {
			t.Fatal(err)
		}
		r := ts.Do(t, "GET", "/v1/compliance/merkle-root", apitest.AdminToken, nil).Must(t, 200)
		anchor, orc = r.JSON["anchor"].(map[string]any), r.JSON["oracle"].(map[string]any)
		if anchor["status"] == "synced" && orc["status"] == "synced" {
			break
		}
		if time.Now().After(guard) {
			t.Fatalf("not synced: anchor %v, oracle %v", anchor, orc)
		}
	}

	bctx := browsertest.New(t)
	signIn(t, bctx, ts, apitest.AdminToken)
	browsertest.Do(t, bctx, chromedp.Click(chromedp.CSS(`#nav a[data-page="anchoring"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#anchoring-anchor dd`)))
	lastTx, ok := orc["txHash"].(string)
	if !ok {
		lastTx = "—" // none in flight
	}
	page := js[string](t, bctx, `document.getElementById('anchoring-anchor').textContent + ' | ' + document.getElementById('anchoring-oracle').textContent`)
	for _, want := range []string{"Statussynced", "Contract" + anchor["contract"].(string), "Transaction" + anchor["txHash"].(string),
		"Block" + itoa(anchor["blockNumber"]), "Chain id" + itoa(anchor["chainId"]), "Confirmations1 required, reached", "Last errornone",
		"Addresses pending0", "Last transaction" + lastTx} {
		if !strings.Contains(page, want) {
			t.Errorf("the anchoring page lacks %q: %s", want, page)
		}
	}
	browsertest.SaveScreenshot(t, bctx, "../docs/console-anchoring.png")
}

// itoa writes a JSON number as an integer.
func itoa(v any) string {
	f, _ := v.(float64)
	return fmt.Sprint(int64(f))
}
