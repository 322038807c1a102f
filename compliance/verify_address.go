package compliance

import (
	"github.com/cairn-dev/cairn/merkle"
	"github.com/cairn-dev/cairn/screening"
)

// merkleProof checks a Merkle proof's leaf and path. Without Anchors (the
// roots checked on chain afterwards), a lone leaf that is its own root
// (an empty proof) fails, for anyone can write such a document of any
// address.
func (v *verifier) merkleProof() bool {
	d := &v.doc
	leaf := merkle.LeafHashStrings2(d.Family, d.CanonicalAddress)
	claimed := (d.Listed != nil && *d.Listed) || (d.Sanctioned != nil && *d.Sanctioned)
	switch {
	case leaf != *d.Leaf:
		return v.fail("leaf", "leaf %s is not the leaf of (%q, %q), %s", d.Leaf, d.Family, d.CanonicalAddress, leaf)
	case len(d.Proof) == 0 && d.Root.String() != leaf.String():
		if claimed {
			return v.fail("proof", "the answer says (%s, %s) is listed but holds no proof of it", d.Family, d.CanonicalAddress)
		}
		v.add("proof", "not listed", "(%s, %s) has no proof under root %s", d.Family, d.CanonicalAddress, d.Root)
	case !merkle.Verify(*d.Root, leaf, d.Proof):
		return v.fail("proof", "the proof does not lead from (%s, %s) to root %s", d.Family, d.CanonicalAddress, d.Root)
	case d.Listed != nil && !*d.Listed:
		return v.fail("proof", "the answer says (%s, %s) is not listed, yet proves it a leaf of root %s", d.Family, d.CanonicalAddress, d.Root)
	case len(d.Proof) == 0 && v.opts.Anchors == nil:
		return v.fail("proof", "the proof is empty and root %s is the leaf itself: a tree of one leaf, which anyone can write of any address; check that root on chain (--evm-rpc-url and --evm-contract)", d.Root)
	default:
		v.ok("proof", "(%s, %s) is a leaf of root %s (%d proof hashes)", d.Family, d.CanonicalAddress, d.Root, len(d.Proof))
	}
	return true
}

// inGap reports whether the gap (low, high) of family holds canon: "" is
// an open end, the comparison byte by byte.
func inGap(v [3]string, family, canon string) bool {
	return v[0] == family && canon != "" && (v[1] == "" || v[1] < canon) && (v[2] == "" || canon < v[2])
}

// addressExclusion checks the exclusion proofs of a Merkle proof answer:
// each gap holds the address, its leaf is the gap's, and its proof leads
// to the exclusion root the answer names.
func (v *verifier) addressExclusion() bool {
	d := &v.doc
	for _, e := range []struct {
		class string
		gap   *gapProofDoc
		root  string
	}{{screening.ClassSanctions, d.ExclusionProof, d.ExclusionRoot}, {screening.ClassCommunity, d.CommunityExclusionProof, d.CommunityExclusionRoot}} {
		g := e.gap
		if g == nil {
			continue
		}
		switch {
		case !inGap(g.Value, d.Family, d.CanonicalAddress):
			return v.fail("exclusion", "the %s exclusion gap %q does not hold (%s, %s)", e.class, g.Value, d.Family, d.CanonicalAddress)
		case g.Leaf != merkle.LeafHashStrings3(g.Value[0], g.Value[1], g.Value[2]):
			return v.fail("exclusion", "the %s exclusion leaf %s is not the leaf of the gap %q", e.class, g.Leaf, g.Value)
		case e.root != "" && g.Root.String() != e.root:
			return v.fail("exclusion", "the %s exclusion proof is against root %s, the answer names %s", e.class, g.Root, e.root)
		case !merkle.Verify(g.Root, g.Leaf, g.Proof):
			return v.fail("exclusion", "the %s exclusion proof does not lead from the gap %q to root %s", e.class, g.Value, g.Root)
		}
		v.ok("exclusion", "(%s, %s) is not in the %s tree: its gap %q is a leaf of exclusion root %s", d.Family, d.CanonicalAddress,
			e.class, g.Value, g.Root)
	}
	if d.ExclusionProof == nil && len(d.Proof) == 0 {
		v.add("exclusion", "note", "no exclusionProof: that the address is not listed is not proven")
	}
	return true
}
