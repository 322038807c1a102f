package main

import (
	"context"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/client"
	"github.com/cairn-dev/cairn/merkle"
)

var exclusionEncoding = apitest.ExclusionEncoding

// verifyExclusion checks an exclusionProof object of an answer
// (apitest.VerifyExclusion).
func verifyExclusion(t *testing.T, v any, family, canon string, root merkle.Hash) {
	t.Helper()
	apitest.VerifyExclusion(t, v, family, canon, root)
}

// TestE2EExclusionProofs: over HTTP, an unlisted address of every kind
// (between listed ones, the lowest and the highest EVM address, another
// family) is proven absent from both trees against the published
// exclusion roots; a listed one has no exclusionProof; a batch proves its
// unlisted addresses with one exclusion multiproof per tree; after a
// delisting the address is proven absent against the new root, which the
// proof of before does not verify against; the Go client reads all of it.
func TestE2EExclusionProofs(t *testing.T) {
	ts, list := complianceServer(t)
	a := ts.register(t, "")
	ts.do(t, "POST", "/v1/admin/credits", admin, map[string]any{"developerId": a.DeveloperID, "amount": 1000, "reason": "test"}).must(t, 200)
	root := ts.do(t, "GET", "/v1/compliance/merkle-root", a.Key, nil).must(t, 200)
	excl, cexcl := hexBytes32(t, root.str("exclusionRoot")), hexBytes32(t, root.str("communityExclusionRoot"))
	if excl == (merkle.Hash{}) || cexcl == (merkle.Hash{}) || root.num("exclusionLeafCount") != root.num("sanctionsLeafCount")+15 ||
		root.num("communityExclusionLeafCount") != root.num("communityLeafCount")+15 {
		t.Fatalf("root: %s", root.Body)
	}
	for _, q := range []struct{ chain, addr, family string }{
		{"ethereum", "0x1111111111111111111111111111111111111111", "evm"},
		{"base", "0x0000000000000000000000000000000000000000", "evm"},
		{"ethereum", "0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", "evm"},
		{"bitcoin", "1BoatSLRHtKNngkdXEeobR76b53LETtpyT", "bitcoin"},
		{"solana", "11111111111111111111111111111111", "solana"},
	} {
		r := ts.do(t, "GET", "/v1/compliance/merkle-proof?chain="+q.chain+"&address="+url.QueryEscape(q.addr), a.Key, nil).must(t, 200)
		if r.JSON["listed"] != false || r.str("exclusionRoot") != root.str("exclusionRoot") {
			t.Fatalf("%s: %s", q.addr, r.Body)
		}
		verifyExclusion(t, r.JSON["exclusionProof"], q.family, r.str("canonicalAddress"), excl)
		verifyExclusion(t, r.JSON["communityExclusionProof"], q.family, r.str("canonicalAddress"), cexcl)
	}
	listed := ts.do(t, "GET", "/v1/compliance/merkle-proof?chain=ethereum&address="+tornado, a.Key, nil).must(t, 200)
	if _, has := listed.JSON["exclusionProof"]; has || listed.JSON["sanctioned"] != true {
		t.Fatalf("a listed address has an exclusion proof: %s", listed.Body)
	}
	verifyExclusion(t, listed.JSON["communityExclusionProof"], "evm", strings.ToLower(tornado), cexcl)

	batch := []map[string]any{
		{"address": tornado, "chain": "ethereum"}, {"address": "0x1111111111111111111111111111111111111111", "chain": "ethereum"},
		{"address": "0x1111111111111111111111111111111111111112", "chain": "polygon"}, // the same gap
		{"address": "0x0000000000000000000000000000000000000000", "chain": "ethereum"},
		{"address": "1BoatSLRHtKNngkdXEeobR76b53LETtpyT", "chain": "bitcoin"}, {"address": "nope", "chain": "ethereum"},
	}
	b := ts.do(t, "POST", "/v1/compliance/merkle-proof/batch", a.Key, map[string]any{"addresses": batch, "multiproof": true}).must(t, 200)
	verifyBatch(t, b, hexBytes32(t, root.str("root")), 1)
	mp := b.JSON["exclusionMultiproof"].(map[string]any)
	if n := len(mp["values"].([]any)); n != 3 {
		t.Fatalf("exclusion multiproof of %d gaps, want 3 (two addresses share one): %s", n, b.Body)
	}
	verifyGapMultiproof(t, mp, excl)
	cmp := b.JSON["communityExclusionMultiproof"].(map[string]any)
	// Nothing is community-listed: every EVM address of the batch lies
	// in the one gap ("evm", "", ""), the bitcoin one in the bitcoin gap.
	if n := len(cmp["values"].([]any)); n != 2 || root.num("communityLeafCount") != 0 {
		t.Fatalf("community exclusion multiproof of %d gaps, want 2", n)
	}
	verifyGapMultiproof(t, cmp, cexcl)

	// The Go client.
	c := client.New(ts.base, a.Key, client.WithStrictDecoding())
	ctx := context.Background()
	cp, err := c.GetMerkleProof(ctx, "0x1111111111111111111111111111111111111111", "ethereum")
	if err != nil || cp.ExclusionProof == nil || cp.ExclusionProof.Root != root.str("exclusionRoot") || cp.CommunityExclusionProof == nil {
		t.Fatalf("client proof: %+v %v", cp, err)
	}
	if ok, err := merkle.VerifyStandard(excl, exclusionEncoding, []any{cp.ExclusionProof.Value[0], cp.ExclusionProof.Value[1], cp.ExclusionProof.Value[2]},
		proofHashes(t, anySlice(cp.ExclusionProof.Proof))); err != nil || !ok {
		t.Fatalf("client exclusion proof does not verify: %v", err)
	}
	cb, err := c.GetMerkleProofBatch(ctx, []client.AddressRef{{Address: "0x1111111111111111111111111111111111111111", Chain: "ethereum"}}, true)
	if err != nil || cb.ExclusionMultiproof == nil || len(cb.ExclusionMultiproof.Values) != 1 || cb.Results[0].ExclusionProof == nil {
		t.Fatalf("client batch: %+v %v", cb, err)
	}
	cr, err := c.GetMerkleRoot(ctx)
	if err != nil || cr.ExclusionRoot != root.str("exclusionRoot") || cr.ExclusionLeafEncoding[2] != "string" {
		t.Fatalf("client root: %+v %v", cr, err)
	}

	// Delisting: the address gets an exclusion proof against the new
	// root; the gap of before no longer verifies (stale).
	old := ts.do(t, "GET", "/v1/compliance/merkle-proof?chain=ethereum&address=0x1111111111111111111111111111111111111111", a.Key, nil).must(t, 200)
	eth, _ := os.ReadFile(list)
	var kept []string
	for _, l := range strings.Split(strings.TrimSpace(string(eth)), "\n") {
		if !strings.EqualFold(strings.TrimSpace(l), tornado) {
			kept = append(kept, l)
		}
	}
	if err := os.WriteFile(list, []byte(strings.Join(kept, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ts.do(t, "POST", "/v1/admin/ingest", admin, nil).must(t, 200)
	after := ts.do(t, "GET", "/v1/compliance/merkle-proof?chain=ethereum&address="+tornado, a.Key, nil).must(t, 200)
	newExcl := hexBytes32(t, after.str("exclusionRoot"))
	if newExcl == excl || after.JSON["listed"] != false {
		t.Fatalf("after the delisting: %s", after.Body)
	}
	verifyExclusion(t, after.JSON["exclusionProof"], "evm", strings.ToLower(tornado), newExcl)
	oldProof := old.JSON["exclusionProof"].(map[string]any)
	if merkle.Verify(newExcl, hexBytes32(t, oldProof["leaf"].(string)), proofHashes(t, oldProof["proof"])) {
		t.Fatal("a proof of the old version verifies against the new exclusion root")
	}
}

// verifyGapMultiproof checks an exclusion multiproof of an answer against
// root.
func verifyGapMultiproof(t *testing.T, mp map[string]any, root merkle.Hash) {
	t.Helper()
	verifyStandardMultiproof(t, mp, root, exclusionEncoding)
}

func anySlice(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
