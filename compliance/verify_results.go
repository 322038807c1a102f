package compliance

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/merkle"
	"github.com/cairn-dev/cairn/screening"
)

// classes are the two trees' classes, in the order the report names them.
var classes = [...]string{screening.ClassSanctions, screening.ClassCommunity}

// inClassOrder is the classes of a document's proofs in the order of
// classes, then any other (which fails) in byte order.
func inClassOrder[P any](m map[string]P) []string {
	rank := func(class string) int {
		if i := slices.Index(classes[:], class); i >= 0 {
			return i
		}
		return len(classes)
	}
	return slices.SortedStableFunc(slices.Values(slices.Sorted(maps.Keys(m))), func(a, b string) int { return cmp.Compare(rank(a), rank(b)) })
}

// resultsHash checks that resultsHash is the SHA-256 of the (compact)
// results.
func (v *verifier) resultsHash() bool {
	var compact bytes.Buffer
	if err := json.Compact(&compact, v.doc.Results); err != nil {
		return v.fail("results-hash", "the results are not JSON: %v", err)
	}
	sum := sha256.Sum256(compact.Bytes())
	if hex.EncodeToString(sum[:]) != v.doc.ResultsHash {
		return v.fail("results-hash", "resultsHash %s does not match the results (sha256 %x)", v.doc.ResultsHash, sum)
	}
	v.ok("results-hash", "resultsHash %s matches the results", v.doc.ResultsHash)
	return true
}

// statuses checks that each result's status agrees with its matches:
// clear and invalid_address have none, flagged only community ones,
// sanctioned at least one of a sanctions source.
func (v *verifier) statuses() bool {
	if err := json.Unmarshal(v.doc.Results, &v.results); err != nil {
		return v.fail("statuses", "the results do not decode: %v", err)
	}
	for i, r := range v.results {
		sanctions, community := matchCounts(r)
		ok := false
		switch r.Status {
		case screening.StatusClear, screening.StatusInvalidAddress:
			ok = sanctions+community == 0
		case screening.StatusFlagged:
			ok = sanctions == 0 && community > 0
		case screening.StatusSanctioned:
			ok = sanctions > 0
		}
		if !ok {
			return v.fail("statuses", "result %d (%s, %s) is %q with %d sanctions and %d community match(es)", i, r.Family, r.Canonical,
				r.Status, sanctions, community)
		}
	}
	v.ok("statuses", "every result's status agrees with its matches")
	return true
}

// resultProofs checks that every listed result is a leaf of the
// multiproof of its class and that each multiproof leads to the root the
// document names for its class.
func (v *verifier) resultProofs() bool {
	d := &v.doc
	want := map[string][][2]string{}
	for _, r := range v.results {
		inSanctions, inCommunity := listedIn(r)
		pair := [2]string{string(r.Family), r.Canonical}
		for _, c := range [...]struct {
			class string
			in    bool
		}{{screening.ClassSanctions, inSanctions}, {screening.ClassCommunity, inCommunity}} {
			if c.in && !slices.Contains(want[c.class], pair) {
				want[c.class] = append(want[c.class], pair)
			}
		}
	}
	if d.MerkleProofs == nil {
		if len(want) > 0 {
			v.add("listings", "note", "no merkleProofs in this document (stored before they were kept): the listed results are not proven")
		}
		return true
	}
	for _, class := range classes {
		vs := want[class]
		if len(vs) == 0 {
			continue
		}
		mp, ok := d.MerkleProofs[class]
		if !ok {
			return v.fail("listings", "%d listed result(s) of class %s and no Merkle proof of that class", len(vs), class)
		}
		for _, pair := range vs {
			if !slices.Contains(mp.Values, pair) {
				return v.fail("listings", "the listed result (%s, %s) is not a leaf of the %s proof", pair[0], pair[1], class)
			}
		}
	}
	roots := map[string]string{screening.ClassSanctions: cmp.Or(d.SanctionsRoot, d.MerkleRoot), screening.ClassCommunity: d.CommunityRoot}
	for _, class := range inClassOrder(d.MerkleProofs) {
		mp := d.MerkleProofs[class]
		if !v.multiproof("listings", class+" proof", roots[class], mp.Root, merkle.MultiProof{Leaves: mp.Leaves, Proof: mp.Proof, ProofFlags: mp.ProofFlags},
			len(mp.Values), func(i int) (merkle.Hash, string) {
				pair := mp.Values[i]
				return merkle.LeafHashStrings2(pair[0], pair[1]), fmt.Sprintf("(%s, %s)", pair[0], pair[1])
			}) {
			return false
		}
		v.ok("listings", "%d %s listing(s) proven against root %s", len(mp.Values), class, mp.Root)
	}
	return true
}

// resultExclusions checks that every result the document calls not
// sanctioned lies in a gap of the sanctions exclusion multiproof, and
// (when the community list was consulted) every clear one in a gap of the
// community one, and that each multiproof leads to the exclusion root the
// document names.
func (v *verifier) resultExclusions() bool {
	d := &v.doc
	if d.ExclusionProofs == nil {
		if slices.ContainsFunc(v.results, func(r screening.Result) bool { return r.Status == screening.StatusClear }) {
			v.add("exclusions", "note", "no exclusionProofs in this document (stored before they were kept): its clear results are not proven")
		}
		return true
	}
	roots := map[string]string{screening.ClassSanctions: d.ExclusionRoot, screening.ClassCommunity: d.CommunityExclusionRoot}
	for _, class := range inClassOrder(d.ExclusionProofs) {
		mp := d.ExclusionProofs[class]
		if !v.multiproof("exclusions", class+" exclusion proof", roots[class], mp.Root, merkle.MultiProof{Leaves: mp.Leaves, Proof: mp.Proof, ProofFlags: mp.ProofFlags},
			len(mp.Values), func(i int) (merkle.Hash, string) {
				gap := mp.Values[i]
				return merkle.LeafHashStrings3(gap[0], gap[1], gap[2]), fmt.Sprintf("the gap %q", gap)
			}) {
			return false
		}
	}
	community := slices.Contains(d.DataSources, screening.SourceCommunity)
	proven := map[string]int{}
	for _, r := range v.results {
		var need []string
		switch r.Status {
		case screening.StatusClear:
			need = append(need, screening.ClassSanctions)
			if community {
				need = append(need, screening.ClassCommunity)
			}
		case screening.StatusFlagged:
			need = append(need, screening.ClassSanctions)
		}
		for _, class := range need {
			if !slices.ContainsFunc(d.ExclusionProofs[class].Values, func(gap [3]string) bool { return inGap(gap, string(r.Family), r.Canonical) }) {
				return v.fail("exclusions", "the %s result (%s, %s) lies in no gap of the %s exclusion proof: its absence from the %s tree is not proven",
					r.Status, r.Family, r.Canonical, class, class)
			}
			proven[class]++
		}
	}
	for _, class := range classes {
		if n := proven[class]; n > 0 {
			v.ok("exclusions", "%d result(s) proven absent from the %s tree against exclusion root %s", n, class, roots[class])
		}
	}
	return true
}

// multiproof checks one class's multiproof (what names it: "sanctions
// proof", "community exclusion proof"): its root is the one the document
// names (want, "" for a class it names none of), it has a value for each
// leaf, each leaf is the leaf of its value (value gives the leaf of value
// i and how the report writes it), and it leads to its root.
func (v *verifier) multiproof(check, what, want string, root merkle.Hash, mp merkle.MultiProof, values int, value func(i int) (merkle.Hash, string)) bool {
	if root.String() != want {
		return v.fail(check, "the %s is against root %s, the document names %q", what, root, want)
	}
	if values != len(mp.Leaves) {
		return v.fail(check, "the %s has %d leaves and %d values", what, len(mp.Leaves), values)
	}
	for i := range values {
		if leaf, name := value(i); leaf != mp.Leaves[i] {
			return v.fail(check, "leaf %d of the %s is not the leaf of %s", i, what, name)
		}
	}
	if !merkle.VerifyMultiProof(root, mp) {
		return v.fail(check, "the %smultiproof does not lead to root %s", strings.TrimSuffix(what, "proof"), root)
	}
	return true
}
