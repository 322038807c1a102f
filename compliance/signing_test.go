package compliance_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/compliance"
	"github.com/cairn-dev/cairn/screening"
)

func seed(b byte) []byte { return bytes.Repeat([]byte{b}, ed25519.SeedSize) }

// signedDoc screens with a signer and returns the stored document, read
// back as a verifier gets it, raw and decoded.
func signedDoc(t *testing.T, signer *compliance.Signer) ([]byte, compliance.ProofDoc) {
	t.Helper()
	ctx := context.Background()
	s, _, p := newService(t)
	s.Signer = signer
	scr, err := s.Screen(ctx, p, []screening.Query{{Address: sanctioned, Chain: "ethereum"}, {Address: unlisted, Chain: "ethereum"}}, true)
	if err != nil {
		t.Fatal(err)
	}
	var head compliance.ProofDoc
	if err := json.Unmarshal(scr.Proof, &head); err != nil {
		t.Fatal(err)
	}
	raw, err := s.Proof(ctx, head.ScreeningID)
	if err != nil {
		t.Fatal(err)
	}
	var doc compliance.ProofDoc
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	return raw, doc
}

// TestSignedProofDocument: a stored document carries the signature of
// its statement by the current key, which verifies with the published
// keys; any change to what the statement covers, an unknown or a
// mismatched key, and a missing signature fail.
func TestSignedProofDocument(t *testing.T) {
	signer, err := compliance.NewSigner(seed(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	raw, doc := signedDoc(t, signer)
	if doc.Signature == nil || doc.Signature.KeyID != signer.KeyID() || doc.Signature.Alg != "Ed25519" {
		t.Fatalf("signature %+v in %s", doc.Signature, raw)
	}
	keys := signer.Keys()
	if len(keys) != 1 || !keys[0].Current {
		t.Fatalf("keys %+v", keys)
	}
	if k, err := compliance.VerifySignature(&doc, keys); err != nil || k.KeyID != signer.KeyID() {
		t.Fatalf("verify: %v (%+v)", err, k)
	}
	// The holder flips the sanctioned result to clear and recomputes
	// resultsHash, as an unkeyed digest lets anyone do.
	var full struct {
		Results json.RawMessage `json:"results"`
	}
	if err := json.Unmarshal(raw, &full); err != nil {
		t.Fatal(err)
	}
	forged := bytes.Replace(full.Results, []byte(`"status":"sanctioned"`), []byte(`"status":"clear"`), 1)
	if bytes.Equal(forged, full.Results) {
		t.Fatalf("no sanctioned result in %s", full.Results)
	}
	sum := sha256.Sum256(forged)
	for name, change := range map[string]func(d *compliance.ProofDoc){
		"resultsHash of flipped results": func(d *compliance.ProofDoc) { d.ResultsHash = hex.EncodeToString(sum[:]) },
		"listVersion":                    func(d *compliance.ProofDoc) { d.ListVersion++ },
		"exclusionRoot":                  func(d *compliance.ProofDoc) { d.ExclusionRoot = d.SanctionsRoot },
		"communityRoot":                  func(d *compliance.ProofDoc) { d.CommunityRoot = d.SanctionsRoot },
		"a data source dropped":          func(d *compliance.ProofDoc) { d.DataSources = d.DataSources[:0] },
		"timestamp":                      func(d *compliance.ProofDoc) { d.Timestamp = "2020-01-01T00:00:00.000Z" },
		"signature value":                func(d *compliance.ProofDoc) { d.Signature.Value = strings.Repeat("A", 86) + "==" },
		"key id":                         func(d *compliance.ProofDoc) { d.Signature.KeyID = "ed25519-0000000000000000" },
		"no signature":                   func(d *compliance.ProofDoc) { d.Signature = nil },
	} {
		d := doc
		sig := *doc.Signature
		d.Signature = &sig
		d.DataSources = append([]string(nil), doc.DataSources...)
		change(&d)
		if _, err := compliance.VerifySignature(&d, keys); err == nil {
			t.Errorf("%s changed: the signature still verifies", name)
		}
	}
	// Another issuer's key under the same id does not verify it.
	other, _ := compliance.NewSigner(seed(2), nil)
	k := other.Keys()[0]
	k.KeyID = signer.KeyID()
	if _, err := compliance.VerifySignature(&doc, []compliance.SigningKey{k}); err == nil {
		t.Error("a published key of another id verified the document")
	}
}

// TestSigningKeyRotation: after a rotation the new key signs, the retired
// one is still published and verifies the documents it signed.
func TestSigningKeyRotation(t *testing.T) {
	old, _ := compliance.NewSigner(seed(1), nil)
	_, before := signedDoc(t, old)
	oldPub := ed25519.NewKeyFromSeed(seed(1)).Public().(ed25519.PublicKey)
	rotated, err := compliance.NewSigner(seed(3), []ed25519.PublicKey{oldPub})
	if err != nil {
		t.Fatal(err)
	}
	keys := rotated.Keys()
	if len(keys) != 2 || !keys[0].Current || keys[0].KeyID != rotated.KeyID() || keys[1].Current || keys[1].KeyID != old.KeyID() {
		t.Fatalf("keys after the rotation %+v", keys)
	}
	if _, err := compliance.VerifySignature(&before, keys); err != nil {
		t.Fatalf("a document of the retired key: %v", err)
	}
	_, after := signedDoc(t, rotated)
	if after.Signature.KeyID != rotated.KeyID() {
		t.Fatalf("signed by %s after the rotation", after.Signature.KeyID)
	}
	if _, err := compliance.VerifySignature(&after, keys[1:]); err == nil {
		t.Fatal("a new document verified with the retired key alone")
	}
}

// TestStatementRefusesAmbiguity: a value with a line break, or a source
// name with a separator, has no statement.
func TestStatementRefusesAmbiguity(t *testing.T) {
	for _, d := range []compliance.ProofDoc{
		{ScreeningID: "a\nresultsHash=00"},
		{DataSources: []string{"a,b"}},
		{DataSnapshots: map[string]screening.Snapshot{"x y": {}}},
	} {
		if st, err := compliance.Statement(&d); err == nil {
			t.Errorf("statement %q of %+v", st, d)
		}
	}
	st, err := compliance.Statement(&compliance.ProofDoc{ScreeningID: "s", ListVersion: 9, DataSources: []string{"b", "a"},
		DataSnapshots: map[string]screening.Snapshot{"b": {SHA256: "22"}, "a": {SHA256: "11"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := "cairn-screening-proof-statement-v1\nscreeningId=s\ntimestamp=\nresultsHash=\nlistVersion=9\nmerkleRoot=\n" +
		"sanctionsRoot=\ncommunityRoot=\nexclusionRoot=\ncommunityExclusionRoot=\ndataSources=b,a\ndataSnapshots=a 11,b 22\n"
	if string(st) != want {
		t.Fatalf("statement\n%s\nwant\n%s", st, want)
	}
}
