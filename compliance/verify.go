package compliance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/merkle"
	"github.com/cairn-dev/cairn/screening"
)

// Check is one verdict of Verify: what was checked (Name), whether it
// holds, and what was found. Verdict is how the finding reads: "OK" or
// "FAIL", or, for a check that holds without proving anything more,
// "note", "not listed", "skipped" or "UNSIGNED".
type Check struct {
	Name    string `json:"name"`
	OK      bool   `json:"ok"`
	Verdict string `json:"verdict"`
	Message string `json:"message"`
}

// String is the check as cairn verify-proof prints it: "verdict: message".
func (c Check) String() string { return c.Verdict + ": " + c.Message }

// Report is what Verify checked of a document, in order. Verification
// stops at the first check that fails, which is then the last one.
type Report struct {
	Checks []Check `json:"checks"`
}

// OK reports whether the document verified: something was checked and
// nothing failed.
func (r Report) OK() bool {
	_, failed := r.Failure()
	return len(r.Checks) > 0 && !failed
}

// Failure returns the check that failed, if one did.
func (r Report) Failure() (Check, bool) {
	if n := len(r.Checks); n > 0 && !r.Checks[n-1].OK {
		return r.Checks[n-1], true
	}
	return Check{}, false
}

// VerifyOptions is what Verify needs of the outside world. The zero value
// checks a document offline: no snapshot is fetched and a signature is
// checked only with Keys.
type VerifyOptions struct {
	// Source is where the document was read from (a path or a URL): the
	// signing keys are looked for at its origin when the document names
	// no proofUrl.
	Source string
	// Fetch reads an http(s) URL: a data snapshot or the published
	// signing keys. Nil: nothing is fetched.
	Fetch func(ctx context.Context, url string) (io.ReadCloser, error)
	// Offline: the data snapshots are not fetched (their digests are not
	// checked).
	Offline bool
	// Keys, when set, are the keys a signature is checked with, instead
	// of the ones published at KeysURL.
	Keys []SigningKey
	// KeysURL is where the issuer publishes its signing keys; "": GET
	// /v1/compliance/signing-keys at the origin of the document's
	// proofUrl, else of Source.
	KeysURL string
	// AllowUnsigned accepts a screening proof without a signature
	// (documents stored before they were signed).
	AllowUnsigned bool
	// Anchors, when set, is the chain the document's roots are checked
	// on; without it a lone leaf that is its own root fails.
	Anchors *Anchors
}

// Anchors is where a verifier contract records the roots of each list
// version: its address and the first block its events are read from, as
// the report names them, and RootsOf, which reads what it recorded for a
// version, oldest first.
type Anchors struct {
	Contract  string
	FromBlock uint64
	RootsOf   func(ctx context.Context, version uint64) ([]AnchoredRoots, error)
}

// AnchoredRoots is what the contract recorded for a list version, and
// where.
type AnchoredRoots struct {
	Sanctions, Community, Exclusion, CommunityExclusion merkle.Hash
	Block                                               uint64
	TxHash                                              string
}

// verifyDoc is what Verify reads of a document: a screening proof
// (GET /v1/compliance/proofs/:id: the header, the results and their
// proofs) or a Merkle proof (GET /v1/compliance/merkle-proof), which
// shares the header's roots and list version.
type verifyDoc struct {
	ProofDoc
	// A Merkle proof.
	Family           string        `json:"family"`
	CanonicalAddress string        `json:"canonicalAddress"`
	Class            *string       `json:"class"`
	Leaf             *merkle.Hash  `json:"leaf"`
	Proof            []merkle.Hash `json:"proof"`
	Root             *merkle.Hash  `json:"root"`
	// Listed and Sanctioned are what the answer claims.
	Listed     *bool `json:"listed"`
	Sanctioned *bool `json:"sanctioned"`
	// ExclusionProof and CommunityExclusionProof prove that the address
	// is not in the sanctions or the community tree.
	ExclusionProof          *gapProofDoc `json:"exclusionProof"`
	CommunityExclusionProof *gapProofDoc `json:"communityExclusionProof"`
	// A screening proof's results and their proofs by class;
	// ExclusionProofs is absent from documents stored before clear
	// results were proven.
	Results         json.RawMessage           `json:"results"`
	MerkleProofs    map[string]ResultProof    `json:"merkleProofs"`
	ExclusionProofs map[string]GapResultProof `json:"exclusionProofs"`
}

// gapProofDoc is the exclusion proof of one address as a Merkle proof
// answer writes it: the gap (family, low, high), its leaf and its path to
// root.
type gapProofDoc struct {
	Value [3]string     `json:"value"`
	Leaf  merkle.Hash   `json:"leaf"`
	Proof []merkle.Hash `json:"proof"`
	Root  merkle.Hash   `json:"root"`
}

// Verify checks a document the service returned:
//   - a Merkle proof (GET /v1/compliance/merkle-proof): the leaf is the
//     OpenZeppelin leaf of (family, canonicalAddress) and the proof leads
//     from it to root; each exclusion proof's gap holds the address and
//     leads to the exclusion root the document names;
//   - a screening proof (GET /v1/compliance/proofs/:id): resultsHash is the
//     SHA-256 of its results; each result's status agrees with its
//     matches; every listed result is a leaf of the multiproof of its
//     class (merkleProofs), which leads to the root the document names for
//     that class; every result that no sanctions source lists lies in a
//     gap of the sanctions exclusion multiproof (exclusionProofs), and,
//     when the community list was consulted, every clear one in a gap of
//     the community one, each leading to the exclusion root the document
//     names; every data snapshot, fetched, has the digest the document
//     names; and the signature is the issuer's;
//   - of both, with opts.Anchors: the contract recorded the document's
//     roots for its list version.
//
// The error is for a document that is not JSON of a proof document; what
// it states that does not hold is a failed Check of the report.
func Verify(ctx context.Context, doc []byte, opts VerifyOptions) (Report, error) {
	v := &verifier{ctx: ctx, opts: opts}
	if err := json.Unmarshal(doc, &v.doc); err != nil {
		return Report{}, fmt.Errorf("not a proof document: %w", err)
	}
	checked := false
	if v.doc.Root != nil && v.doc.Leaf != nil {
		checked = true
		if !v.all(v.merkleProof, v.addressExclusion, v.anchored(v.proofClaim())) {
			return v.report, nil
		}
	}
	if v.doc.ResultsHash != "" && len(v.doc.Results) > 0 {
		checked = true
		if !v.all(v.resultsHash, v.statuses, v.resultProofs, v.resultExclusions, v.snapshots, v.signature,
			v.anchored(v.screeningClaim())) {
			return v.report, nil
		}
	}
	if !checked {
		v.fail("document", "the document holds neither a Merkle proof (leaf, proof, root) nor results with a resultsHash")
	}
	return v.report, nil
}

// verifier is one run of Verify: the document, its decoded results and
// the report so far.
type verifier struct {
	ctx     context.Context
	opts    VerifyOptions
	doc     verifyDoc
	results []screening.Result
	report  Report
}

// all runs the checks in order until one fails; it reports whether all
// held.
func (v *verifier) all(checks ...func() bool) bool {
	for _, c := range checks {
		if !c() {
			return false
		}
	}
	return true
}

// add appends a check that holds.
func (v *verifier) add(name, verdict, format string, args ...any) {
	v.report.Checks = append(v.report.Checks, Check{Name: name, OK: true, Verdict: verdict, Message: fmt.Sprintf(format, args...)})
}

// ok appends a check that holds, "OK".
func (v *verifier) ok(name, format string, args ...any) { v.add(name, "OK", format, args...) }

// fail appends a check that fails and returns false.
func (v *verifier) fail(name, format string, args ...any) bool {
	v.report.Checks = append(v.report.Checks, Check{Name: name, Verdict: "FAIL", Message: fmt.Sprintf(format, args...)})
	return false
}

// message is err's text for a person: a *cairn.Error in its chain reads
// as its message, not as "cairn error: code=... message=...".
func message(err error) string {
	var ce *cairn.Error
	if !errors.As(err, &ce) {
		return err.Error()
	}
	return strings.Replace(err.Error(), ce.Error(), ce.Message, 1)
}
