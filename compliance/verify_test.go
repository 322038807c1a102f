package compliance_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/compliance"
	"github.com/cairn-dev/cairn/merkle"
	"github.com/cairn-dev/cairn/screening"
)

// verifyFixture is a signing service over a real store with a snapshot of
// the sanctions source served at its public URL: what a verifier of its
// documents fetches.
type verifyFixture struct {
	s      *compliance.Service
	p      compliance.Principal
	signer *compliance.Signer
	served map[string][]byte // by URL
}

func newVerifyFixture(t *testing.T) *verifyFixture {
	t.Helper()
	s, ledger, p := newService(t)
	if _, err := ledger.Grant(context.Background(), p.DeveloperID, 1e6, "test", ""); err != nil {
		t.Fatal(err)
	}
	signer, err := compliance.NewSigner(seed(5), nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Signer, s.PublicURL = signer, "https://cairn.example"
	snapshot := []byte("<sdnList>the published list</sdnList>")
	sum := sha256.Sum256(snapshot)
	digest := hex.EncodeToString(sum[:])
	s.Screening.Current().Snapshots = map[string]screening.Snapshot{screening.SourceGovSDN: {SHA256: digest}}
	return &verifyFixture{s: s, p: p, signer: signer, served: map[string][]byte{compliance.SnapshotURL(s.PublicURL, digest): snapshot}}
}

// fetch serves the fixture's snapshots, and nothing else.
func (f *verifyFixture) fetch(_ context.Context, url string) (io.ReadCloser, error) {
	b, ok := f.served[url]
	if !ok {
		return nil, errors.New("GET " + url + ": 404 Not Found")
	}
	return io.NopCloser(bytes.NewReader(b)), nil
}

// options verify with the fixture's key and snapshots.
func (f *verifyFixture) options() compliance.VerifyOptions {
	return compliance.VerifyOptions{Fetch: f.fetch, Keys: f.signer.Keys()}
}

// screeningDoc screens the addresses (the community consulted) and
// returns the stored document as a verifier reads it.
func (f *verifyFixture) screeningDoc(t *testing.T, addrs ...string) []byte {
	t.Helper()
	qs := make([]screening.Query, len(addrs))
	for i, a := range addrs {
		qs[i] = screening.Query{Address: a, Chain: "ethereum"}
	}
	_, head := screenOnce(t, f.s, f.p, qs)
	doc, err := f.s.Proof(context.Background(), head.ScreeningID)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// merkleProofDoc is the Merkle proof of one address as GET
// /v1/compliance/merkle-proof writes it, from the service's answer.
func (f *verifyFixture) merkleProofDoc(t *testing.T, addr string) []byte {
	t.Helper()
	out, err := f.s.Prove(context.Background(), f.p, addr, "ethereum", "")
	if err != nil {
		t.Fatal(err)
	}
	ap := out.Proofs[0]
	gap := func(e *compliance.ExclusionProof) any {
		if e == nil {
			return nil
		}
		return map[string]any{"value": [3]string{string(e.Family), e.Low, e.High}, "leaf": e.Leaf, "proof": e.Proof, "root": e.Root}
	}
	var class any
	if ap.Class != "" {
		class = ap.Class
	}
	doc, err := json.Marshal(map[string]any{
		"family": ap.Family, "canonicalAddress": ap.Canonical, "class": class, "leaf": ap.Leaf, "proof": ap.Proof, "root": ap.Root,
		"listed": ap.Listed, "sanctioned": ap.Sanctioned, "listVersion": out.ListVersion,
		"sanctionsRoot": out.SanctionsRoot, "communityRoot": out.CommunityRoot,
		"exclusionRoot": out.ExclusionRoot, "communityExclusionRoot": out.CommunityExclusionRoot,
		"exclusionProof": gap(ap.Exclusion), "communityExclusionProof": gap(ap.CommunityExclusion),
	})
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// edit decodes doc, lets change rewrite its members and encodes it again.
// The results stay the bytes their hash was taken of: a change that edits
// them reads them with results and writes them with rehash.
func edit(t *testing.T, doc []byte, change func(m map[string]any)) []byte {
	t.Helper()
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(doc, &raw); err != nil {
		t.Fatal(err)
	}
	m := make(map[string]any, len(raw))
	for k, v := range raw {
		var x any = v
		if k != "results" {
			if err := json.Unmarshal(v, &x); err != nil {
				t.Fatal(err)
			}
		}
		m[k] = x
	}
	change(m)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// results decodes the document's results.
func results(t *testing.T, m map[string]any) []any {
	t.Helper()
	var rs []any
	if err := json.Unmarshal(m["results"].(json.RawMessage), &rs); err != nil {
		t.Fatal(err)
	}
	return rs
}

// rehash sets the document's results and the resultsHash of them.
func rehash(t *testing.T, m map[string]any, rs []any) {
	t.Helper()
	b, err := json.Marshal(rs)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	m["results"], m["resultsHash"] = json.RawMessage(b), hex.EncodeToString(sum[:])
}

// lines is the report as cairn verify-proof prints it.
func lines(r compliance.Report) string {
	var b strings.Builder
	for _, c := range r.Checks {
		b.WriteString(c.Name + " " + c.String() + "\n")
	}
	return b.String()
}

// mustVerify verifies doc and fails the test when Verify errs.
func mustVerify(t *testing.T, doc []byte, opts compliance.VerifyOptions) compliance.Report {
	t.Helper()
	r, err := compliance.Verify(context.Background(), doc, opts)
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	return r
}

// TestVerifyScreeningProof: a signed document of a sanctioned, a listed
// and flagged, a flagged and a clear address verifies, check by check in
// the order verify-proof prints them; the snapshot is fetched and its
// digest checked unless offline.
func TestVerifyScreeningProof(t *testing.T) {
	f := newVerifyFixture(t)
	doc := f.screeningDoc(t, sanctioned, both, flagged, unlisted)
	r := mustVerify(t, doc, f.options())
	if !r.OK() {
		t.Fatalf("a document of the service fails:\n%s", lines(r))
	}
	var names []string
	for _, c := range r.Checks {
		names = append(names, c.Name)
		if !c.OK || c.Verdict != "OK" {
			t.Errorf("check %+v", c)
		}
	}
	want := []string{"results-hash", "statuses", "listings", "listings", "exclusions", "exclusions", "snapshot", "signature"}
	if !slices.Equal(names, want) {
		t.Fatalf("checks %q, want %q:\n%s", names, want, lines(r))
	}
	for i, sub := range map[int]string{2: "2 sanctions listing(s) proven against root", 3: "2 community listing(s) proven against root",
		4: "2 result(s) proven absent from the sanctions tree", 5: "1 result(s) proven absent from the community tree",
		6: "snapshot of gov_sdn matches sha256", 7: "signed by " + f.signer.KeyID() + " (the current key, "} {
		if !strings.Contains(r.Checks[i].Message, sub) {
			t.Errorf("check %d: %q, want %q", i, r.Checks[i].Message, sub)
		}
	}
	offline := f.options()
	offline.Offline = true
	r = mustVerify(t, doc, offline)
	if c := r.Checks[6]; !r.OK() || c.Verdict != "skipped" || !strings.Contains(c.String(), "skipped: snapshot of gov_sdn (sha256 ") {
		t.Fatalf("offline:\n%s", lines(r))
	}
}

// TestVerifyScreeningProofForged: every change a holder could make to a
// document fails at the check that catches it, and the checks before it
// hold.
func TestVerifyScreeningProofForged(t *testing.T) {
	f := newVerifyFixture(t)
	doc := f.screeningDoc(t, sanctioned, flagged, unlisted)
	for _, tc := range []struct {
		name, check, want string
		change            func(m map[string]any)
		opts              func(o *compliance.VerifyOptions)
	}{
		{"StatusFlipped", "results-hash", "does not match the results", func(m map[string]any) {
			m["results"] = json.RawMessage(bytes.Replace(m["results"].(json.RawMessage), []byte(`"status":"sanctioned"`), []byte(`"status":"clear"`), 1))
		}, nil},
		{"StatusFlippedRehashed", "statuses", `result 0 (evm, ` + sanctioned + `) is "clear" with 1 sanctions and 0 community match(es)`, func(m map[string]any) {
			rs := results(t, m)
			rs[0].(map[string]any)["status"] = "clear"
			rehash(t, m, rs)
		}, nil},
		{"ClearedRehashed", "exclusions", "the clear result (evm, " + sanctioned + ") lies in no gap of the sanctions exclusion proof", func(m map[string]any) {
			rs := results(t, m)
			rs[0].(map[string]any)["status"], rs[0].(map[string]any)["matches"] = "clear", []any{}
			rehash(t, m, rs)
		}, nil},
		{"ListingWithoutProof", "listings", "1 listed result(s) of class sanctions and no Merkle proof of that class", func(m map[string]any) {
			delete(m["merkleProofs"].(map[string]any), "sanctions")
		}, nil},
		{"ProofHashAltered", "listings", "the sanctions multiproof does not lead to root", func(m map[string]any) {
			m["merkleProofs"].(map[string]any)["sanctions"].(map[string]any)["proof"].([]any)[0] = merkle.Hash{1}.String()
		}, nil},
		{"LeafAltered", "listings", "leaf 0 of the community proof is not the leaf of (evm, " + flagged + ")", func(m map[string]any) {
			m["merkleProofs"].(map[string]any)["community"].(map[string]any)["leaves"].([]any)[0] = merkle.Hash{1}.String()
		}, nil},
		{"RootRenamed", "listings", "the sanctions proof is against root", func(m map[string]any) {
			m["sanctionsRoot"] = merkle.Hash{2}.String()
		}, nil},
		{"ExclusionProofsDropped", "exclusions", "its absence from the sanctions tree is not proven", func(m map[string]any) {
			m["exclusionProofs"] = map[string]any{}
		}, nil},
		{"ExclusionLeafAltered", "exclusions", "leaf 0 of the sanctions exclusion proof is not the leaf of the gap", func(m map[string]any) {
			m["exclusionProofs"].(map[string]any)["sanctions"].(map[string]any)["leaves"].([]any)[0] = merkle.Hash{3}.String()
		}, nil},
		{"SnapshotDigest", "snapshot", "the snapshot of gov_sdn at https://cairn.example/v1/compliance/snapshots/", func(m map[string]any) {
			snap := m["dataSnapshots"].(map[string]any)["gov_sdn"].(map[string]any)
			snap["storageUrl"] = "https://cairn.example/v1/compliance/snapshots/" + snap["sha256"].(string)
			snap["sha256"] = strings.Repeat("0", 64)
		}, func(o *compliance.VerifyOptions) {
			o.Fetch = func(ctx context.Context, url string) (io.ReadCloser, error) {
				return f.fetch(ctx, strings.Replace(url, "/snapshots/"+strings.Repeat("0", 64), "/snapshots/"+f.s.Screening.Current().Snapshots[screening.SourceGovSDN].SHA256, 1))
			}
		}},
		{"SnapshotGone", "snapshot", "snapshot of gov_sdn: GET https://cairn.example/v1/compliance/snapshots/", nil, func(o *compliance.VerifyOptions) {
			f := *f
			f.served = nil
			o.Fetch = f.fetch
		}},
		{"SignatureRemoved", "signature", "the document carries no signature", func(m map[string]any) { delete(m, "signature") }, nil},
		{"OtherKey", "signature", "is not among the 1 published keys", nil, func(o *compliance.VerifyOptions) {
			other, _ := compliance.NewSigner(seed(6), nil)
			o.Keys = other.Keys()
		}},
		{"TimestampRewritten", "signature", "the signature does not match the document", func(m map[string]any) {
			m["timestamp"] = "2020-01-01T00:00:00.000Z"
		}, nil},
		{"NoKeysURL", "signature", "cannot check the signature: the document names no proofUrl", func(m map[string]any) { delete(m, "proofUrl") },
			func(o *compliance.VerifyOptions) { o.Keys = nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			forged := doc
			if tc.change != nil {
				forged = edit(t, doc, tc.change)
			}
			opts := f.options()
			if tc.opts != nil {
				tc.opts(&opts)
			}
			r := mustVerify(t, forged, opts)
			c, failed := r.Failure()
			if r.OK() || !failed || c.Name != tc.check || c.Verdict != "FAIL" || !strings.Contains(c.Message, tc.want) {
				t.Fatalf("report, want %s to fail with %q:\n%s", tc.check, tc.want, lines(r))
			}
			for _, c := range r.Checks[:len(r.Checks)-1] {
				if !c.OK {
					t.Fatalf("a check before the last fails:\n%s", lines(r))
				}
			}
		})
	}
}

// TestVerifyUnsigned: a document without a signature verifies with
// AllowUnsigned, its signature check then saying it is not bound to the
// issuer; the signing keys are fetched from the origin of its proofUrl.
func TestVerifyUnsigned(t *testing.T) {
	f := newVerifyFixture(t)
	doc := f.screeningDoc(t, sanctioned, unlisted)
	unsigned := edit(t, doc, func(m map[string]any) { delete(m, "signature") })
	opts := f.options()
	opts.AllowUnsigned = true
	r := mustVerify(t, unsigned, opts)
	if c := r.Checks[len(r.Checks)-1]; !r.OK() || c.Name != "signature" || c.Verdict != "UNSIGNED" {
		t.Fatalf("unsigned, allowed:\n%s", lines(r))
	}
	keys, _ := json.Marshal(map[string]any{"keys": f.signer.Keys()})
	f.served["https://cairn.example/v1/compliance/signing-keys"] = keys
	opts = f.options()
	opts.Keys = nil
	if r := mustVerify(t, doc, opts); !r.OK() {
		t.Fatalf("keys fetched from the proofUrl's origin:\n%s", lines(r))
	}
}

// TestVerifyMerkleProof: the proof of a listed address and of a clear one
// verify; a widened gap, an altered proof hash, a claimed listing without
// its proof and a lone leaf as its own root fail. With Anchors the roots
// are checked against what the contract recorded.
func TestVerifyMerkleProof(t *testing.T) {
	f := newVerifyFixture(t)
	listed, clear := f.merkleProofDoc(t, sanctioned), f.merkleProofDoc(t, unlisted)
	r := mustVerify(t, listed, compliance.VerifyOptions{})
	if !r.OK() || len(r.Checks) != 2 || r.Checks[0].Name != "proof" || !strings.HasPrefix(r.Checks[0].String(), "OK: (evm, "+sanctioned+") is a leaf of root ") ||
		!strings.Contains(r.Checks[1].String(), "is not in the community tree") {
		t.Fatalf("listed:\n%s", lines(r))
	}
	r = mustVerify(t, clear, compliance.VerifyOptions{})
	if !r.OK() || len(r.Checks) != 3 || r.Checks[0].Verdict != "not listed" ||
		!strings.Contains(r.Checks[1].Message, "is not in the sanctions tree: its gap") || !strings.Contains(r.Checks[2].Message, "is not in the community tree") {
		t.Fatalf("clear:\n%s", lines(r))
	}
	for _, tc := range []struct {
		name, check, want string
		doc               []byte
		change            func(m map[string]any)
	}{
		{"OtherAddress", "leaf", "is not the leaf of", listed, func(m map[string]any) { m["canonicalAddress"] = unlisted }},
		{"ProofHashAltered", "proof", "the proof does not lead from", listed, func(m map[string]any) { m["proof"].([]any)[0] = merkle.Hash{4}.String() }},
		{"ListingWithoutProof", "proof", "the answer says (evm, " + sanctioned + ") is listed but holds no proof of it", listed, func(m map[string]any) { m["proof"] = []any{} }},
		{"LoneLeaf", "proof", "the proof is empty and root " + "%LEAF%" + " is the leaf itself", listed, func(m map[string]any) {
			m["proof"], m["root"] = []any{}, m["leaf"]
		}},
		{"DeniedListing", "proof", "is not listed, yet proves it a leaf of root", listed, func(m map[string]any) { m["listed"] = false }},
		{"WidenedGap", "exclusion", "the sanctions exclusion leaf", clear, func(m map[string]any) {
			m["exclusionProof"].(map[string]any)["value"].([]any)[2] = "0xffffffffffffffffffffffffffffffffffffffff"
		}},
		{"MovedGap", "exclusion", "the sanctions exclusion gap", clear, func(m map[string]any) {
			m["exclusionProof"].(map[string]any)["value"].([]any)[0] = "bitcoin"
		}},
		{"ExclusionRootRenamed", "exclusion", "the community exclusion proof is against root", clear, func(m map[string]any) {
			m["communityExclusionRoot"] = merkle.Hash{5}.String()
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var leaf string
			forged := edit(t, tc.doc, func(m map[string]any) { leaf = m["leaf"].(string); tc.change(m) })
			r := mustVerify(t, forged, compliance.VerifyOptions{})
			c, failed := r.Failure()
			if want := strings.Replace(tc.want, "%LEAF%", leaf, 1); !failed || c.Name != tc.check || !strings.Contains(c.Message, want) {
				t.Fatalf("report, want %s to fail with %q:\n%s", tc.check, want, lines(r))
			}
		})
	}

	// On chain: the roots recorded for the version verify the document, a
	// lone leaf included only if the contract recorded it; other roots or
	// none fail.
	ix := f.s.Screening.Current()
	recorded := compliance.AnchoredRoots{Sanctions: ix.Root(), Community: ix.CommunityRoot(), Exclusion: ix.ExclusionRoot(),
		CommunityExclusion: ix.CommunityExclusionRoot(), Block: 12, TxHash: "0xabc"}
	anchors := func(rs ...compliance.AnchoredRoots) compliance.VerifyOptions {
		return compliance.VerifyOptions{Anchors: &compliance.Anchors{Contract: "0xC0ffee", FromBlock: 3,
			RootsOf: func(_ context.Context, v uint64) ([]compliance.AnchoredRoots, error) {
				if v != ix.Version {
					return nil, errors.New("wrong version")
				}
				return rs, nil
			}}}
	}
	r = mustVerify(t, listed, anchors(recorded))
	if c := r.Checks[len(r.Checks)-1]; !r.OK() || c.String() != "OK: the roots of list version 7 were anchored at 0xC0ffee in block 12 (transaction 0xabc)" {
		t.Fatalf("anchored:\n%s", lines(r))
	}
	r = mustVerify(t, listed, anchors())
	if c, _ := r.Failure(); c.String() != "FAIL: list version 7 was never anchored at 0xC0ffee (no RootsUpdated event of it since block 3)" {
		t.Fatalf("never anchored:\n%s", lines(r))
	}
	other := recorded
	other.Exclusion = merkle.Hash{6}
	r = mustVerify(t, clear, anchors(other))
	if c, _ := r.Failure(); c.String() != "FAIL: the contract at 0xC0ffee recorded other roots for list version 7 (block 12) than the document names" {
		t.Fatalf("other roots:\n%s", lines(r))
	}
	lone := edit(t, listed, func(m map[string]any) { m["proof"], m["root"] = []any{}, m["leaf"] })
	if r := mustVerify(t, lone, anchors(recorded)); r.OK() || r.Checks[0].Name != "proof" || r.Checks[len(r.Checks)-1].Name != "anchored" {
		t.Fatalf("a lone leaf the contract never recorded:\n%s", lines(r))
	}
}

// TestVerifyNotAProof: what is not JSON errs; a JSON document holding
// neither kind of proof fails.
func TestVerifyNotAProof(t *testing.T) {
	if _, err := compliance.Verify(context.Background(), []byte("nope"), compliance.VerifyOptions{}); err == nil || !strings.HasPrefix(err.Error(), "not a proof document: ") {
		t.Fatalf("not JSON: %v", err)
	}
	r := mustVerify(t, []byte(`{}`), compliance.VerifyOptions{})
	if c, failed := r.Failure(); r.OK() || !failed || c.Name != "document" || len(r.Checks) != 1 {
		t.Fatalf("empty document:\n%s", lines(r))
	}
	if (compliance.Report{}).OK() {
		t.Fatal("an empty report is OK")
	}
}

// TestVerifyScreeningProofPrograms: a document whose results hold a match
// with programs (both) and one without (sanctioned, as every match was
// before programs were kept) verifies; resultsHash covers the programs: an
// edited program fails it, and rehashed, fails the signature.
func TestVerifyScreeningProofPrograms(t *testing.T) {
	f := newVerifyFixture(t)
	doc := f.screeningDoc(t, sanctioned, both)
	var raw struct{ Results json.RawMessage }
	if err := json.Unmarshal(doc, &raw); err != nil {
		t.Fatal(err)
	}
	if bytes.Count(raw.Results, []byte(`"programs":`)) != 1 || !bytes.Contains(raw.Results, []byte(`"entityName":null,"programs":["DPRK3","CYBER2"],"source":"gov_sdn"`)) {
		t.Fatalf("results %s", raw.Results)
	}
	if r := mustVerify(t, doc, f.options()); !r.OK() {
		t.Fatalf("a document with programs fails:\n%s", lines(r))
	}
	for _, tc := range []struct {
		name, check string
		change      func(m map[string]any)
	}{
		{"ProgramEdited", "results-hash", func(m map[string]any) {
			m["results"] = json.RawMessage(bytes.Replace(m["results"].(json.RawMessage), []byte(`"DPRK3"`), []byte(`"IRAN"`), 1))
		}},
		{"ProgramEditedRehashed", "signature", func(m map[string]any) {
			rs := results(t, m)
			for _, x := range rs[1].(map[string]any)["matches"].([]any) {
				if x := x.(map[string]any); x["source"] == screening.SourceGovSDN {
					x["programs"] = []string{"IRAN"}
				}
			}
			rehash(t, m, rs)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := mustVerify(t, edit(t, doc, tc.change), f.options())
			var failed []string
			for _, c := range r.Checks {
				if !c.OK {
					failed = append(failed, c.Name)
				}
			}
			if r.OK() || len(failed) != 1 || failed[0] != tc.check {
				t.Fatalf("failed checks %q, want only %s:\n%s", failed, tc.check, lines(r))
			}
		})
	}
}
