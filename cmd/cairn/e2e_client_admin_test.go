package main

import (
	"context"
	"errors"
	"io"
	"testing"

	cairn "github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/client"
)

// TestE2EClientOperatorCalls covers the client methods of operators and
// auditors: ingest, moderation, snapshots by digest, deposits.
func TestE2EClientOperatorCalls(t *testing.T) {
	ts, _ := complianceServer(t)
	ctx := context.Background()
	pub := client.New(ts.base, "", client.WithAdminToken(admin))
	a := ts.registerEstablished()
	c := pub.WithAPIKey(a.Key)

	ing, err := pub.RunIngest(ctx)
	if err != nil || ing["listVersion"] == nil {
		t.Fatalf("ingest: %v %v", ing, err)
	}
	if _, err := client.New(ts.base, a.Key).RunIngest(ctx); !client.IsCode(err, cairn.EUNAUTHORIZED) && !client.IsCode(err, cairn.EFORBIDDEN) {
		t.Fatalf("ingest without the admin token: %v", err)
	}

	sc, err := c.ScreenAddresses(ctx, []client.AddressRef{{Address: tornado, Chain: "ethereum"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	snaps := sc.Proof["dataSnapshots"].(map[string]any)
	sha := snaps["list:ETH"].(map[string]any)["sha256"].(string)
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
	if _, err := pub.ConfirmReport(ctx, rep.ReportID, "confirmed by the operator"); err != nil {
		t.Fatal(err)
	}
	if mp, err := c.GetMerkleProof(ctx, addr, "ethereum"); err != nil || !mp.Listed || mp.Sanctioned {
		t.Fatalf("confirmed report: %+v %v", mp, err)
	}
	if _, err := pub.DelistCommunityAddress(ctx, addr, "ethereum", "mistake"); err != nil {
		t.Fatal(err)
	}
	if mp, err := c.GetMerkleProof(ctx, addr, "ethereum"); err != nil || mp.Listed {
		t.Fatalf("delisted: %+v %v", mp, err)
	}

	_, err = c.DepositAPT(ctx, "not-a-hash")
	var e *client.Error
	if !errors.As(err, &e) || e.Code != cairn.EINVALID || e.Status != 400 {
		t.Fatalf("deposit with a bad hash: %v", err)
	}
}
