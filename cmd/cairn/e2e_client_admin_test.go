package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"testing"

	cairn "github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/client"
)

// TestE2EClientOperatorCalls covers the client methods of operators and
// auditors: ingest, moderation, snapshots by digest, deposits.
func TestE2EClientOperatorCalls(t *testing.T) {
	cfg, _ := complianceConfig(t)
	node := newFakeAptos(t)
	cfg.AptosNodeURL, cfg.CreditsPerAPT = node.srv.URL+"/v1", 1000
	ts := startServer(t, cfg)
	ctx := context.Background()
	pub := client.New(ts.base, "", client.WithAdminToken(admin), client.WithStrictDecoding())
	a := ts.registerEstablished(t)
	c := pub.WithAPIKey(a.Key)

	ing, err := pub.RunIngest(ctx)
	if err != nil || ing.ListVersion == 0 || ing.Root == "" || ing.LeafCount == 0 || len(ing.Failures) != 0 {
		t.Fatalf("ingest: %+v %v", ing, err)
	}
	if _, err := client.New(ts.base, a.Key).RunIngest(ctx); !client.IsCode(err, cairn.EUNAUTHORIZED) && !client.IsCode(err, cairn.EFORBIDDEN) {
		t.Fatalf("ingest without the admin token: %v", err)
	}

	sc, err := c.ScreenAddresses(ctx, []client.AddressRef{{Address: tornado, Chain: "ethereum"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sha := sc.Proof.DataSnapshots["list:ETH"].SHA256
	whole, err := pub.GetSnapshot(ctx, sha, client.RangeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	_, err = io.Copy(h, whole.Body)
	whole.Body.Close()
	if err != nil || hex.EncodeToString(h.Sum(nil)) != sha {
		t.Fatalf("the snapshot served for %s hashes to %x (%v)", sha, h.Sum(nil), err)
	}
	s, err := pub.GetSnapshot(ctx, sha, client.RangeOptions{Range: "bytes=0-9"})
	if err != nil {
		t.Fatal(err)
	}
	part, _ := io.ReadAll(s.Body)
	s.Body.Close()
	if s.Status != 206 || len(part) != 10 {
		t.Fatalf("snapshot range: %d %d bytes", s.Status, len(part))
	}
	if _, err := pub.GetSnapshot(ctx, "00"+sha[2:], client.RangeOptions{}); !client.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("unknown snapshot: %v", err)
	}

	const addr = "0x00000000000000000000000000000000000000cc"
	rep, err := c.ReportAddress(ctx, client.ReportRequest{Address: addr, Chain: "ethereum", Category: "hack", Reason: "bridge exploit"})
	if err != nil {
		t.Fatal(err)
	}
	mod, err := pub.ConfirmReport(ctx, rep.ReportID, "confirmed by the operator")
	if err != nil || mod.Action != "confirm" || !mod.CommunityListed || !mod.TreeChanged || mod.Family != "evm" ||
		len(mod.Reports) != 1 || mod.Reports[0].ReportID != rep.ReportID || mod.Reports[0].Status != "confirmed" {
		t.Fatalf("confirm: %+v %v", mod, err)
	}
	if mp, err := c.GetMerkleProof(ctx, addr, "ethereum"); err != nil || !mp.Listed || mp.Sanctioned {
		t.Fatalf("confirmed report: %+v %v", mp, err)
	}
	if mod, err := pub.DelistCommunityAddress(ctx, addr, "ethereum", "mistake"); err != nil || mod.Action != "delist" ||
		mod.CommunityListed || !mod.TreeChanged || mod.Address != addr {
		t.Fatalf("delist: %+v %v", mod, err)
	}
	if mp, err := c.GetMerkleProof(ctx, addr, "ethereum"); err != nil || mp.Listed {
		t.Fatalf("delisted: %+v %v", mp, err)
	}

	_, err = c.DepositAPT(ctx, "not-a-hash")
	var e *client.Error
	if !errors.As(err, &e) || e.Code != cairn.EINVALID || e.Status != 400 {
		t.Fatalf("deposit with a bad hash: %v", err)
	}
	before, err := c.GetAgentBalance(ctx)
	if err != nil {
		t.Fatal(err)
	}
	node.set(txHash(1), faDeposit(t, txHash(1), a.Address, 50_000_000, true))
	dep, err := c.DepositAPT(ctx, txHash(1))
	if err != nil || dep.TxHash != txHash(1) || dep.Octas != "50000000" || dep.CreditsAdded != 500 || dep.Version == 0 ||
		dep.CreditBalance != before.CreditBalance+500 || dep.Transaction.Kind != "deposit" || dep.Transaction.TxHash != txHash(1) {
		t.Fatalf("deposit: %+v %v", dep, err)
	}
	// A second submission is refused with the original credit in the
	// problem document.
	_, err = c.DepositAPT(ctx, txHash(1))
	var credit struct {
		Credit struct {
			TransactionID string `json:"transactionId"`
		} `json:"credit"`
	}
	if !errors.As(err, &e) || e.Code != cairn.EALREADYCREDITED || json.Unmarshal(e.Problem, &credit) != nil ||
		credit.Credit.TransactionID != dep.Transaction.ID {
		t.Fatalf("second deposit: %v (%s)", err, e.Problem)
	}
}
