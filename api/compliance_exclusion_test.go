package api_test

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

// TestE2EExclusionProofs: over HTTP, an unlisted address of every kind
// (between listed ones, the lowest and the highest EVM address, another
// family) is proven absent from both trees against the published
// exclusion roots; a listed one has no exclusionProof; a batch proves its
// unlisted addresses with one exclusion multiproof per tree; after a
// delisting the address is proven absent against the new root, which the
// proof of before does not verify against; the Go client reads all of it.
func TestE2EExclusionProofs(t *testing.T) {
	ts, list, _ := listServer(t)
	a := ts.Register(t, "")
	ts.Do(t, "POST", "/v1/admin/credits", apitest.AdminToken, map[string]any{"developerId": a.DeveloperID, "amount": 1000, "reason": "test"}).Must(t, 200)
	root := ts.Do(t, "GET", "/v1/compliance/merkle-root", a.Key, nil).Must(t, 200)
	excl, cexcl := apitest.HexBytes32(t, root.Str("exclusionRoot")), apitest.HexBytes32(t, root.Str("communityExclusionRoot"))
	if excl == (merkle.Hash{}) || cexcl == (merkle.Hash{}) || root.Num("exclusionLeafCount") != root.Num("sanctionsLeafCount")+15 ||
		root.Num("communityExclusionLeafCount") != root.Num("communityLeafCount")+15 {
		t.Fatalf("root: %s", root.Body)
	}
	for _, q := range []struct{ chain, addr, family string }{
		{"ethereum", "0x1111111111111111111111111111111111111111", "evm"},
		{"base", "0x0000000000000000000000000000000000000000", "evm"},
		{"ethereum", "0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", "evm"},
		{"bitcoin", "1BoatSLRHtKNngkdXEeobR76b53LETtpyT", "bitcoin"},
		{"solana", "11111111111111111111111111111111", "solana"},
	} {
		r := ts.Do(t, "GET", "/v1/compliance/merkle-proof?chain="+q.chain+"&address="+url.QueryEscape(q.addr), a.Key, nil).Must(t, 200)
		if r.JSON["listed"] != false || r.Str("exclusionRoot") != root.Str("exclusionRoot") {
			t.Fatalf("%s: %s", q.addr, r.Body)
		}
		apitest.VerifyExclusion(t, r.JSON["exclusionProof"], q.family, r.Str("canonicalAddress"), excl)
		apitest.VerifyExclusion(t, r.JSON["communityExclusionProof"], q.family, r.Str("canonicalAddress"), cexcl)
	}
	listed := ts.Do(t, "GET", "/v1/compliance/merkle-proof?chain=ethereum&address="+apitest.Tornado, a.Key, nil).Must(t, 200)
	if _, has := listed.JSON["exclusionProof"]; has || listed.JSON["sanctioned"] != true {
		t.Fatalf("a listed address has an exclusion proof: %s", listed.Body)
	}
	apitest.VerifyExclusion(t, listed.JSON["communityExclusionProof"], "evm", strings.ToLower(apitest.Tornado), cexcl)

	batch := []map[string]any{
		{"address": apitest.Tornado, "chain": "ethereum"}, {"address": "0x1111111111111111111111111111111111111111", "chain": "ethereum"},
		{"address": "0x1111111111111111111111111111111111111112", "chain": "polygon"}, // the same gap
		{"address": "0x0000000000000000000000000000000000000000", "chain": "ethereum"},
		{"address": "1BoatSLRHtKNngkdXEeobR76b53LETtpyT", "chain": "bitcoin"}, {"address": "nope", "chain": "ethereum"},
	}
	b := ts.Do(t, "POST", "/v1/compliance/merkle-proof/batch", a.Key, map[string]any{"addresses": batch, "multiproof": true}).Must(t, 200)
	apitest.VerifyBatch(t, b, apitest.HexBytes32(t, root.Str("root")), 1)
	mp := b.JSON["exclusionMultiproof"].(map[string]any)
	if n := len(mp["values"].([]any)); n != 3 {
		t.Fatalf("exclusion multiproof of %d gaps, want 3 (two addresses share one): %s", n, b.Body)
	}
	verifyGapMultiproof(t, mp, excl)
	cmp := b.JSON["communityExclusionMultiproof"].(map[string]any)
	// Nothing is community-listed: every EVM address of the batch lies
	// in the one gap ("evm", "", ""), the bitcoin one in the bitcoin gap.
	if n := len(cmp["values"].([]any)); n != 2 || root.Num("communityLeafCount") != 0 {
		t.Fatalf("community exclusion multiproof of %d gaps, want 2", n)
	}
	verifyGapMultiproof(t, cmp, cexcl)

	// The Go client.
	c := client.New(ts.URL, a.Key, client.WithStrictDecoding())
	ctx := context.Background()
	cp, err := c.GetMerkleProof(ctx, "0x1111111111111111111111111111111111111111", "ethereum")
	if err != nil || cp.ExclusionProof == nil || cp.ExclusionProof.Root != root.Str("exclusionRoot") || cp.CommunityExclusionProof == nil {
		t.Fatalf("client proof: %+v %v", cp, err)
	}
	if ok, err := merkle.VerifyStandard(excl, apitest.ExclusionEncoding, []any{cp.ExclusionProof.Value[0], cp.ExclusionProof.Value[1], cp.ExclusionProof.Value[2]},
		apitest.ProofHashes(t, anySlice(cp.ExclusionProof.Proof))); err != nil || !ok {
		t.Fatalf("client exclusion proof does not verify: %v", err)
	}
	cb, err := c.GetMerkleProofBatch(ctx, []client.AddressRef{{Address: "0x1111111111111111111111111111111111111111", Chain: "ethereum"}}, true)
	if err != nil || cb.ExclusionMultiproof == nil || len(cb.ExclusionMultiproof.Values) != 1 || cb.Results[0].ExclusionProof == nil {
		t.Fatalf("client batch: %+v %v", cb, err)
	}
	cr, err := c.GetMerkleRoot(ctx)
	if err != nil || cr.ExclusionRoot != root.Str("exclusionRoot") || cr.ExclusionLeafEncoding[2] != "string" {
		t.Fatalf("client root: %+v %v", cr, err)
	}

	// Delisting: the address gets an exclusion proof against the new
	// root; the gap of before no longer verifies (stale).
	old := ts.Do(t, "GET", "/v1/compliance/merkle-proof?chain=ethereum&address=0x1111111111111111111111111111111111111111", a.Key, nil).Must(t, 200)
	eth, _ := os.ReadFile(list)
	var kept []string
	for _, l := range strings.Split(strings.TrimSpace(string(eth)), "\n") {
		if !strings.EqualFold(strings.TrimSpace(l), apitest.Tornado) {
			kept = append(kept, l)
		}
	}
	if err := os.WriteFile(list, []byte(strings.Join(kept, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ts.Do(t, "POST", "/v1/admin/ingest", apitest.AdminToken, nil).Must(t, 200)
	after := ts.Do(t, "GET", "/v1/compliance/merkle-proof?chain=ethereum&address="+apitest.Tornado, a.Key, nil).Must(t, 200)
	newExcl := apitest.HexBytes32(t, after.Str("exclusionRoot"))
	if newExcl == excl || after.JSON["listed"] != false {
		t.Fatalf("after the delisting: %s", after.Body)
	}
	apitest.VerifyExclusion(t, after.JSON["exclusionProof"], "evm", strings.ToLower(apitest.Tornado), newExcl)
	oldProof := old.JSON["exclusionProof"].(map[string]any)
	if merkle.Verify(newExcl, apitest.HexBytes32(t, oldProof["leaf"].(string)), apitest.ProofHashes(t, oldProof["proof"])) {
		t.Fatal("a proof of the old version verifies against the new exclusion root")
	}
}

// verifyGapMultiproof checks an exclusion multiproof of an answer against
// root.
func verifyGapMultiproof(t *testing.T, mp map[string]any, root merkle.Hash) {
	t.Helper()
	apitest.VerifyStandardMultiproof(t, mp, root, apitest.ExclusionEncoding)
}

func anySlice(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
