package compliance

import (
	"context"

	"github.com/cairn-dev/cairn/merkle"
	"github.com/cairn-dev/cairn/screening"
)

// LeafEncoding is the OpenZeppelin StandardMerkleTree leaf encoding of
// every tree: (family, canonical address).
var LeafEncoding = []string{"string", "string"}

// AddressProof is the Merkle proof of one address.
type AddressProof struct {
	Address   string
	Chain     string
	Family    screening.Family
	Canonical string
	// Valid is false for an address that is not of its chain's family (a
	// batch answers it; a single proof request fails instead).
	Valid bool
	// Listed: the address is a leaf of the tree; Sanctioned: a sanctions
	// source lists it (a community listing alone is never sanctioned).
	Listed, Sanctioned bool
	// Leaf is the address's leaf hash (listed or not); nil when invalid.
	Leaf *merkle.Hash
	// Proof leads from Leaf to Root; empty when not listed.
	Proof []merkle.Hash
}

// Proved is the answer to a proof request.
type Proved struct {
	Root        merkle.Hash
	ListVersion uint64
	Proofs      []AddressProof
	// Multiproof is the OpenZeppelin multiproof of the listed addresses,
	// when asked for, with the values in the order of its leaves.
	Multiproof *Multiproof
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

// Prove returns the Merkle proof of one address against the current list
// version: a known chain and a valid address of its family (EINVALID). It
// is billed as the screening of one address.
func (s *Service) Prove(ctx context.Context, p Principal, addr, chain string) (*Proved, error) {
	fam, canon, err := ParseAddress(addr, chain)
	if err != nil {
		return nil, err
	}
	if err := s.CheckReady(); err != nil {
		return nil, err
	}
	pm, err := s.pay(ctx, p, 1)
	if err != nil {
		return nil, err
	}
	ix := s.Screening.Current()
	ap := proveOne(ix, screening.Query{Address: addr, Chain: chain}, fam, canon)
	return &Proved{Root: ix.Root(), ListVersion: ix.Version, Proofs: []AddressProof{ap}, Usage: pm.usage}, nil
}

// ProveBatch returns the Merkle proofs of up to MaxAddresses addresses
// and, with multiproof, one multiproof of the listed ones. An unknown
// chain fails the batch (EINVALID); an invalid address is answered with
// Valid false. Every address of the batch is billed as a screened one,
// invalid ones included, as in Screen; a request that fails is not.
func (s *Service) ProveBatch(ctx context.Context, p Principal, qs []screening.Query, multiproof bool) (*Proved, error) {
	if err := checkCount(len(qs)); err != nil {
		return nil, err
	}
	if err := checkChains(qs); err != nil {
		return nil, err
	}
	if err := s.CheckReady(); err != nil {
		return nil, err
	}
	pm, err := s.pay(ctx, p, len(qs))
	if err != nil {
		return nil, err
	}
	ix := s.Screening.Current()
	out := &Proved{Usage: pm.usage, Root: ix.Root(), ListVersion: ix.Version, Proofs: make([]AddressProof, len(qs))}
	var listed [][2]string
	for i, q := range qs {
		fam, _ := screening.ChainFamily(q.Chain) // checked above
		canon, st := screening.Normalize(fam, q.Address)
		if st == screening.StatusInvalid {
			out.Proofs[i] = AddressProof{Address: q.Address, Chain: q.Chain, Family: fam, Canonical: canon, Proof: []merkle.Hash{}}
			continue
		}
		out.Proofs[i] = proveOne(ix, q, fam, canon)
		if out.Proofs[i].Listed {
			listed = append(listed, [2]string{string(fam), canon})
		}
	}
	if multiproof {
		mp, values, err := ix.MultiProof(listed)
		if err != nil {
			s.refund(ctx, p, pm)
			return nil, err
		}
		for _, hs := range []*[]merkle.Hash{&mp.Leaves, &mp.Proof} {
			if *hs == nil {
				*hs = []merkle.Hash{}
			}
		}
		if mp.ProofFlags == nil {
			mp.ProofFlags = []bool{}
		}
		out.Multiproof = &Multiproof{MultiProof: mp, Values: values}
	}
	return out, nil
}

// proveOne proves a valid address.
func proveOne(ix *screening.Index, q screening.Query, fam screening.Family, canon string) AddressProof {
	leaf, proof, ok := ix.Proof(fam, canon)
	if !ok {
		leaf = merkle.LeafHashStrings2(string(fam), canon)
	}
	if proof == nil {
		proof = []merkle.Hash{}
	}
	return AddressProof{Address: q.Address, Chain: q.Chain, Family: fam, Canonical: canon, Valid: true,
		Listed: ok, Sanctioned: ok && sanctionedIn(ix, fam, canon), Leaf: &leaf, Proof: proof}
}

// sanctionedIn reports whether a sanctions source (not the community one)
// lists the address: a community listing alone is in the tree but screens
// as flagged, never sanctioned.
func sanctionedIn(ix *screening.Index, f screening.Family, canonical string) bool {
	for _, m := range ix.Lookup(f, canonical) {
		if m.Source != screening.SourceCommunity {
			return true
		}
	}
	return false
}
