package main

import (
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/chain"
	"github.com/cairn-dev/cairn/chain/evm"
	"github.com/cairn-dev/cairn/client"
	"github.com/ethereum/go-ethereum/common"
)

// TestE2EProofsAgainstTheAnchoredVersion: while a new list version is
// being anchored (submitted, not mined), listVersion=anchored answers
// against the version the chain holds, whose proofs pass the contract,
// and the default answers against the new one; a version number held is
// answered, one not held is a 404 naming the held ones, a malformed one a
// 400; once the new version is synced, anchored follows it and the old
// version is let go.
func TestE2EProofsAgainstTheAnchoredVersion(t *testing.T) {
	c := newSimChain(t)
	base, list, eth := complianceList(t)
	cfg, setup := c.config(base)
	ts := startServer(t, cfg, setup)
	a := ts.register(t, "")
	ts.do(t, "POST", "/v1/admin/credits", admin, map[string]any{"developerId": a.DeveloperID, "amount": 1000, "reason": "test"}).must(t, 200)
	waitAnchor(t, ts, c, 1, chain.AnchorSynced, true)

	// The exclusion roots are anchored with the others: a clear proof
	// from the API passes isNotSanctioned and isNotListed on chain, the
	// same gap for a listed address does not.
	v := evm.NewVerifier()
	root := ts.do(t, "GET", "/v1/compliance/merkle-root", a.Key, nil).must(t, 200)
	if got := call(t, c, v.PackExclusionRoot(), v.UnpackExclusionRoot); got != hexBytes32(t, root.str("exclusionRoot")) {
		t.Fatalf("exclusionRoot on chain %x, served %s", got, root.str("exclusionRoot"))
	}
	clearAddr := "0x1111111111111111111111111111111111111111"
	cp := ts.do(t, "GET", "/v1/compliance/merkle-proof?chain=ethereum&address="+clearAddr, a.Key, nil).must(t, 200)
	ex := cp.JSON["exclusionProof"].(map[string]any)
	var exProof [][32]byte
	for _, h := range ex["proof"].([]any) {
		exProof = append(exProof, hexBytes32(t, h.(string)))
	}
	low, high := common.HexToAddress(ex["low"].(string)), common.HexToAddress(ex["high"].(string))
	if !call(t, c, v.PackIsNotSanctioned(common.HexToAddress(clearAddr), low, high, exProof), v.UnpackIsNotSanctioned) {
		t.Fatalf("isNotSanctioned refuses the API's clear proof: %s", cp.Body)
	}
	val := ex["value"].([]any)
	if !call(t, c, v.PackIsNotListed("evm", clearAddr, val[1].(string), val[2].(string), exProof), v.UnpackIsNotListed) {
		t.Fatal("isNotListed refuses the API's clear proof")
	}
	if call(t, c, v.PackIsNotSanctioned(common.HexToAddress(tornado), low, high, exProof), v.UnpackIsNotSanctioned) {
		t.Fatal("isNotSanctioned accepts a listed address with another's gap")
	}

	delist(t, list, eth, tornado)
	ts.do(t, "POST", "/v1/admin/ingest", admin, nil).must(t, 200)
	waitAnchor(t, ts, c, 2, chain.AnchorSubmitted, false)

	path := "/v1/compliance/merkle-proof?chain=ethereum&address=" + tornado
	current := ts.do(t, "GET", path, a.Key, nil).must(t, 200)
	if current.JSON["listed"] != false || current.num("listVersion") != 2 {
		t.Fatalf("current: %s", current.Body)
	}
	anchored := ts.do(t, "GET", path+"&listVersion=anchored", a.Key, nil).must(t, 200)
	if anchored.JSON["listed"] != true || anchored.num("listVersion") != 1 {
		t.Fatalf("anchored: %s", anchored.Body)
	}
	p := getProof(t, ts, a.Key, tornado+"&listVersion=anchored", "ethereum")
	checkOnChain(t, c, p, true, true) // the chain still holds version 1
	if one := ts.do(t, "GET", path+"&listVersion=1", a.Key, nil).must(t, 200); one.str("root") != anchored.str("root") {
		t.Fatalf("listVersion=1: %s", one.Body)
	}
	if two := ts.do(t, "GET", path+"&listVersion=2", a.Key, nil).must(t, 200); two.str("sanctionsRoot") != current.str("sanctionsRoot") {
		t.Fatalf("listVersion=2: %s", two.Body)
	}
	ts.do(t, "GET", path+"&listVersion=99", a.Key, nil).problem(t, 404, cairn.ENOTFOUND)
	ts.do(t, "GET", path+"&listVersion=latest", a.Key, nil).problem(t, 400, cairn.EINVALID)
	batch := ts.do(t, "POST", "/v1/compliance/merkle-proof/batch", a.Key, map[string]any{"listVersion": "anchored",
		"addresses": []map[string]any{{"address": tornado, "chain": "ethereum"}}}).must(t, 200)
	if batch.num("listVersion") != 1 || batch.JSON["results"].([]any)[0].(map[string]any)["listed"] != true {
		t.Fatalf("batch anchored: %s", batch.Body)
	}
	if b := ts.do(t, "POST", "/v1/compliance/merkle-proof/batch", a.Key, map[string]any{"listVersion": 2,
		"addresses": []map[string]any{{"address": tornado, "chain": "ethereum"}}}).must(t, 200); b.num("listVersion") != 2 {
		t.Fatalf("batch listVersion 2: %s", b.Body)
	}
	cl := client.New(ts.base, a.Key, client.WithStrictDecoding())
	if cp, err := cl.GetMerkleProofAt(ctx, tornado, "ethereum", "anchored"); err != nil || !cp.Listed || cp.ListVersion != 1 {
		t.Fatalf("client, anchored: %+v %v", cp, err)
	}
	if cb, err := cl.GetMerkleProofBatchAt(ctx, []client.AddressRef{{Address: tornado, Chain: "ethereum"}}, false, "1"); err != nil || cb.ListVersion != 1 {
		t.Fatalf("client batch, version 1: %+v %v", cb, err)
	}
	ts.do(t, "POST", "/v1/compliance/merkle-proof/batch", a.Key, map[string]any{"listVersion": true,
		"addresses": []map[string]any{{"address": tornado, "chain": "ethereum"}}}).problem(t, 400, cairn.EINVALID)

	// Version 2 is mined: anchored follows it, and version 1 is let go
	// once the service has seen it synced.
	waitAnchor(t, ts, c, 2, chain.AnchorSynced, true)
	ts.do(t, "GET", "/v1/compliance/merkle-root", a.Key, nil).must(t, 200)
	after := ts.do(t, "GET", path+"&listVersion=anchored", a.Key, nil).must(t, 200)
	if after.num("listVersion") != 2 || after.JSON["listed"] != false {
		t.Fatalf("anchored after version 2 is synced: %s", after.Body)
	}
	ts.do(t, "GET", path+"&listVersion=1", a.Key, nil).problem(t, 404, cairn.ENOTFOUND)
	// The delisted address is now proven clear on chain.
	ex = after.JSON["exclusionProof"].(map[string]any)
	exProof = exProof[:0]
	for _, h := range ex["proof"].([]any) {
		exProof = append(exProof, hexBytes32(t, h.(string)))
	}
	if !call(t, c, v.PackIsNotSanctioned(common.HexToAddress(tornado), common.HexToAddress(ex["low"].(string)),
		common.HexToAddress(ex["high"].(string)), exProof), v.UnpackIsNotSanctioned) {
		t.Fatalf("isNotSanctioned refuses the delisted address's proof: %s", after.Body)
	}
}

// TestE2EAnchoredWithoutAnchoring: listVersion=anchored on a service that
// anchors nothing is a 400 that says so.
func TestE2EAnchoredWithoutAnchoring(t *testing.T) {
	ts, _ := complianceServer(t)
	a := ts.register(t, "")
	r := ts.do(t, "GET", "/v1/compliance/merkle-proof?chain=ethereum&listVersion=anchored&address="+tornado, a.Key, nil).problem(t, 400, cairn.EINVALID)
	if r.str("field") != "listVersion" {
		t.Fatalf("problem: %s", r.Body)
	}
}
