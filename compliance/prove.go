package compliance

import (
	"context"

	"github.com/cairn-dev/cairn/merkle"
	"github.com/cairn-dev/cairn/screening"
)

// LeafEncoding is the OpenZeppelin StandardMerkleTree leaf encoding of
// both membership trees: (family, canonical address).
var LeafEncoding = []string{"string", "string"}

// ExclusionLeafEncoding is the leaf encoding of both exclusion trees: a gap
// (family, low, high) between consecutive listed addresses, "" at an open
// end (screening/index_exclusion.go).
var ExclusionLeafEncoding = screening.ExclusionEncoding

// AddressProof is the Merkle proof of one address.
type AddressProof struct {
	Address   string
	Chain     string
	Family    screening.Family
	Canonical string
	// Valid is false for an address that is not of its chain's family (a
	// batch answers it; a single proof request fails instead).
	Valid bool
	// Class is the tree that holds the address's leaf:
	// screening.ClassSanctions when a sanctions source lists it (community
	// reports or not), screening.ClassCommunity when only community
	// escalations do, "" when it is not listed.
	Class string
	// Listed: the address is a leaf of either tree; Sanctioned: of the
	// sanctions tree (a community flag is never sanctioned).
	Listed, Sanctioned bool
	// Leaf is the address's leaf hash (listed or not); nil when invalid.
	Leaf *merkle.Hash
	// Root is the root of the class's tree (the sanctions root when not
	// listed); Proof leads from Leaf to it, empty when not listed.
	Root  merkle.Hash
	Proof []merkle.Hash
	// Exclusion proves that the address is not in the sanctions tree, by
	// its gap in the sanctions exclusion tree; nil when it is in it (or
	// invalid). CommunityExclusion is the same for the community tree.
	Exclusion, CommunityExclusion *ExclusionProof
}

// ExclusionProof is the proof that an address is not in the tree of a
// class: the leaf of its gap (Value: family, low, high, with "" at an
// open end) in the class's exclusion tree, and the path to Root.
type ExclusionProof struct {
	screening.Gap
	Root merkle.Hash
}

// Proved is the answer to a proof request.
type Proved struct {
	SanctionsRoot merkle.Hash
	CommunityRoot merkle.Hash
	// ExclusionRoot and CommunityExclusionRoot are the roots of the
	// exclusion trees of the same version.
	ExclusionRoot, CommunityExclusionRoot merkle.Hash
	ListVersion                           uint64
	Proofs                                []AddressProof
	// Multiproof and CommunityMultiproof are the OpenZeppelin multiproofs
	// of the addresses of each class, when asked for, with the values in
	// the order of their leaves.
	Multiproof, CommunityMultiproof *Multiproof
	// ExclusionMultiproof and CommunityExclusionMultiproof are the
	// multiproofs of the gaps of the valid addresses that are not in each
	// class's tree, when asked for.
	ExclusionMultiproof, CommunityExclusionMultiproof *GapMultiproof
	// Usage is the billing of the request: a proof answers whether an
	// address is listed, which is what screening sells, so each address
	// draws on the same free window and then costs 1 credit.
	Usage Usage
}

// Multiproof is one OpenZeppelin multiproof and the (family, address)
// values of its leaves.
type Multiproof struct {
	merkle.MultiProof
	Values [][2]string
}

// GapMultiproof is one OpenZeppelin multiproof of exclusion tree leaves
// and their (family, low, high) values.
type GapMultiproof struct {
	merkle.MultiProof
	Values [][3]string
}

// Prove returns the Merkle proof of one address against the list version
// at names (IndexAt): a known chain and a valid address of its family
// (EINVALID). It is billed as the screening of one address.
func (s *Service) Prove(ctx context.Context, p Principal, addr, chain, at string) (*Proved, error) {
	fam, canon, err := ParseAddress(addr, chain)
	if err != nil {
		return nil, err
	}
	out, ix, _, err := s.provedAt(ctx, p, 1, at)
	if err != nil {
		return nil, err
	}
	out.Proofs[0] = proveOne(ix, screening.Query{Address: addr, Chain: chain}, fam, canon)
	return out, nil
}

// provedAt is the answer of n proofs against the list version at names
// (IndexAt), once the service is ready and the n addresses are paid for,
// with the index it proves against and the payment (refunded when the
// request fails after it).
func (s *Service) provedAt(ctx context.Context, p Principal, n int, at string) (*Proved, *screening.Index, *payment, error) {
	if err := s.CheckReady(); err != nil {
		return nil, nil, nil, err
	}
	ix, err := s.IndexAt(ctx, at)
	if err != nil {
		return nil, nil, nil, err
	}
	pm, err := s.pay(ctx, p, n)
	if err != nil {
		return nil, nil, nil, err
	}
	out := proved(ix, n)
	out.Usage = pm.usage
	return out, ix, pm, nil
}

// ProveBatch returns the Merkle proofs of up to MaxAddresses addresses,
// against the list version at names (IndexAt), and, with multiproof, one multiproof per class of the listed ones. An
// unknown chain fails the batch (EINVALID); an invalid address is answered
// with Valid false. Every address of the batch is billed as a screened
// one, invalid ones included, as in Screen; a request that fails is not.
func (s *Service) ProveBatch(ctx context.Context, p Principal, qs []screening.Query, multiproof bool, at string) (*Proved, error) {
	if err := checkCount(len(qs)); err != nil {
		return nil, err
	}
	if err := checkChains(qs); err != nil {
		return nil, err
	}
	out, ix, pm, err := s.provedAt(ctx, p, len(qs), at)
	if err != nil {
		return nil, err
	}
	listed := map[string][][2]string{}
	var valid [][2]string
	for i, q := range qs {
		fam, _ := screening.ChainFamily(q.Chain) // checked above
		canon, st := screening.Normalize(fam, q.Address)
		if st == screening.StatusInvalid {
			out.Proofs[i] = AddressProof{Address: q.Address, Chain: q.Chain, Family: fam, Canonical: canon, Proof: []merkle.Hash{}}
			continue
		}
		out.Proofs[i] = proveOne(ix, q, fam, canon)
		valid = append(valid, [2]string{string(fam), canon})
		if c := out.Proofs[i].Class; c != "" {
			listed[c] = append(listed[c], [2]string{string(fam), canon})
		}
	}
	if multiproof {
		for class, dst := range map[string]**Multiproof{screening.ClassSanctions: &out.Multiproof, screening.ClassCommunity: &out.CommunityMultiproof} {
			if *dst, err = multiproofOf(ix, class, listed[class], 0); err != nil {
				s.refund(ctx, p, pm)
				return nil, err
			}
		}
		for class, dst := range map[string]**GapMultiproof{screening.ClassSanctions: &out.ExclusionMultiproof, screening.ClassCommunity: &out.CommunityExclusionMultiproof} {
			if *dst, err = gapMultiproofOf(ix, class, valid, 0); err != nil {
				s.refund(ctx, p, pm)
				return nil, err
			}
		}
	}
	return out, nil
}

// proved is the frame of an answer about n addresses.
func proved(ix *screening.Index, n int) *Proved {
	return &Proved{SanctionsRoot: ix.Root(), CommunityRoot: ix.CommunityRoot(), ExclusionRoot: ix.ExclusionRoot(),
		CommunityExclusionRoot: ix.CommunityExclusionRoot(), ListVersion: ix.Version, Proofs: make([]AddressProof, n)}
}

// multiproofOf is the multiproof of the pairs in the tree of class, its
// lists never nil; with top > 0, of its proof hashes only those of nodes
// at tree index top or beyond (merkle.Tree.MultiProofBelow).
func multiproofOf(ix *screening.Index, class string, pairs [][2]string, top int) (*Multiproof, error) {
	mp, values, err := ix.MultiProofInBelow(class, pairs, top)
	if err != nil {
		return nil, err
	}
	nonNil(&mp)
	return &Multiproof{MultiProof: mp, Values: values}, nil
}

// nonNil makes the lists of mp empty rather than nil, as the answers
// write them.
func nonNil(mp *merkle.MultiProof) {
	for _, hs := range []*[]merkle.Hash{&mp.Leaves, &mp.Proof} {
		if *hs == nil {
			*hs = []merkle.Hash{}
		}
	}
	if mp.ProofFlags == nil {
		mp.ProofFlags = []bool{}
	}
}

// gapMultiproofOf is the multiproof of the gaps of the pairs that are not
// in the tree of class, its lists never nil; top is multiproofOf's.
func gapMultiproofOf(ix *screening.Index, class string, pairs [][2]string, top int) (*GapMultiproof, error) {
	mp, values, err := ix.ExclusionMultiProofBelow(class, pairs, top)
	if err != nil {
		return nil, err
	}
	nonNil(&mp)
	return &GapMultiproof{MultiProof: mp, Values: values}, nil
}

// exclusionOf is the exclusion proof of a valid address in the exclusion
// tree of class, nil when it is in the class's tree.
func exclusionOf(ix *screening.Index, class string, fam screening.Family, canon string) *ExclusionProof {
	g, ok := ix.ExclusionProof(class, fam, canon)
	if !ok {
		return nil
	}
	return &ExclusionProof{Gap: g, Root: ix.ExclusionRootOf(class)}
}

// proveOne proves a valid address in the tree of its class, and its
// absence from each tree it is not in.
func proveOne(ix *screening.Index, q screening.Query, fam screening.Family, canon string) AddressProof {
	class := ix.ClassOf(fam, canon)
	ap := AddressProof{Address: q.Address, Chain: q.Chain, Family: fam, Canonical: canon, Valid: true, Class: class,
		Listed: class != "", Sanctioned: class == screening.ClassSanctions, Root: ix.RootOf(class), Proof: []merkle.Hash{}}
	leaf, proof, ok := ix.ProofIn(class, fam, canon)
	if !ok {
		leaf = merkle.LeafHashStrings2(string(fam), canon)
	} else if proof != nil {
		ap.Proof = proof
	}
	ap.Leaf = &leaf
	ap.Exclusion = exclusionOf(ix, screening.ClassSanctions, fam, canon)
	ap.CommunityExclusion = exclusionOf(ix, screening.ClassCommunity, fam, canon)
	return ap
}
