package api

import (
	"encoding/json"
	"net/http"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/compliance"
	"github.com/cairn-dev/cairn/merkle"
	"github.com/cairn-dev/cairn/screening"
	"github.com/cairn-dev/cairn/wire"
	"github.com/gin-gonic/gin"
)

// merkleProof is GET /v1/compliance/merkle-proof?address=&chain=.
func (s *Server) merkleProof(c *gin.Context) error {
	out, err := s.Compliance.Prove(c.Request.Context(), s.complianceCaller(c), c.Query("address"), c.Query("chain"), c.Query("listVersion"))
	if err != nil {
		return err
	}
	p := proofJSON(out.Proofs[0])
	leaf := ""
	if p.Leaf != nil {
		leaf = *p.Leaf
	}
	writeJSON(c, http.StatusOK, wire.MerkleProof{Address: p.Address, Chain: p.Chain, Family: p.Family, CanonicalAddress: p.CanonicalAddress,
		Class: p.Class, Sanctioned: p.Sanctioned, Listed: p.Listed, Leaf: leaf, Proof: p.Proof, Root: *p.Root,
		ExclusionProof: p.ExclusionProof, CommunityExclusionProof: p.CommunityExclusionProof,
		LeafEncoding: compliance.LeafEncoding, ListVersion: int64(out.ListVersion),
		SanctionsRoot: out.SanctionsRoot.String(), CommunityRoot: out.CommunityRoot.String(),
		ExclusionLeafEncoding: compliance.ExclusionLeafEncoding,
		ExclusionRoot:         out.ExclusionRoot.String(), CommunityExclusionRoot: out.CommunityExclusionRoot.String(),
		RateLimit: freeUsage(c, out.Usage)})
	return nil
}

// proofJSON renders the proof of one address.
func proofJSON(p compliance.AddressProof) wire.AddressProof {
	root := p.Root.String()
	out := wire.AddressProof{Address: p.Address, Chain: p.Chain, Family: string(p.Family), CanonicalAddress: p.Canonical,
		Valid: p.Valid, Class: optString(p.Class), Sanctioned: p.Sanctioned, Listed: p.Listed, Proof: hashes(p.Proof), Root: &root}
	if p.Leaf != nil {
		leaf := p.Leaf.String()
		out.Leaf = &leaf
	}
	if p.Exclusion != nil {
		out.ExclusionProof = exclusionJSON(p.Exclusion)
	}
	if p.CommunityExclusion != nil {
		out.CommunityExclusionProof = exclusionJSON(p.CommunityExclusion)
	}
	return out
}

// hashes are hs as 0x hex strings, nil (JSON null) when hs is nil.
func hashes(hs []merkle.Hash) []string {
	if hs == nil {
		return nil
	}
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h.String()
	}
	return out
}

// Open ends of an EVM gap as the contract's isNotSanctioned takes them:
// the lowest and the highest address stand for "" (no listed address
// below, or above).
const (
	evmLowSentinel  = "0x0000000000000000000000000000000000000000"
	evmHighSentinel = "0xffffffffffffffffffffffffffffffffffffffff"
)

// exclusionJSON renders an exclusion proof: low and high as a caller
// passes them to the contract (for EVM, 0x addresses, an open end as the
// lowest or the highest address), value the exclusion tree's leaf value
// exactly ("" at an open end), leaf its hash, proof the path to root.
func exclusionJSON(e *compliance.ExclusionProof) *wire.ExclusionProof {
	low, high := e.Low, e.High
	if e.Family == screening.EVM {
		if low == "" {
			low = evmLowSentinel
		}
		if high == "" {
			high = evmHighSentinel
		}
	}
	return &wire.ExclusionProof{Low: low, High: high, Value: [3]string{string(e.Family), e.Low, e.High}, Leaf: e.Leaf.String(),
		Proof: hashes(e.Proof), Root: e.Root.String()}
}

// merkleRoot is GET /v1/compliance/merkle-root: the roots of the current
// list version and their anchoring.
func (s *Server) merkleRoot(c *gin.Context) error {
	r := s.Compliance.Roots(c.Request.Context())
	writeJSON(c, http.StatusOK, wire.MerkleRoot{
		Root: r.SanctionsRoot.String(), SanctionsRoot: r.SanctionsRoot.String(), CommunityRoot: r.CommunityRoot.String(),
		ListVersion: int64(r.ListVersion), LeafCount: r.SanctionsLeaves, SanctionsLeafCount: r.SanctionsLeaves,
		CommunityLeafCount: r.CommunityLeaves, ExclusionRoot: r.ExclusionRoot.String(),
		CommunityExclusionRoot: r.CommunityExclusionRoot.String(), ExclusionLeafCount: r.ExclusionLeaves,
		CommunityExclusionLeafCount: r.CommunityExclusionLeaves, ExclusionLeafEncoding: compliance.ExclusionLeafEncoding,
		BuiltAt: wire.OptAt(r.BuiltAt), Anchor: anchorJSON(r), Oracle: oracleJSON(r),
	})
	return nil
}

// anchorJSON renders the anchoring state of r: only the status when
// anchoring is off, else every field (null until known).
func anchorJSON(r compliance.Roots) wire.Anchor {
	a := r.Anchor
	if a.Status == compliance.AnchorDisabled {
		return wire.Anchor{Status: wire.Disabled}
	}
	return wire.Anchor{Status: a.Status, ChainID: int64(a.ChainID()), Confirmations: int64(r.Confirmations), HeadBlock: int64(r.Head), Contract: a.Contract(), ListVersion: optInt(a.ListVersion),
		TxHash: optString(a.TxHash), BlockNumber: optInt(a.BlockNumber), SyncedAt: wire.OptAt(a.SyncedAt), Error: optString(a.Error)}
}

// optInt is n, or nil (JSON null) when n is 0.
func optInt(n uint64) *int64 {
	if n == 0 {
		return nil
	}
	v := int64(n)
	return &v
}

// oracleJSON renders the state of the contract's isSanctioned(address)
// storage: only the status when it is not kept.
func oracleJSON(r compliance.Roots) wire.Oracle {
	o := r.Oracle
	if o.Status == compliance.OracleDisabled {
		return wire.Oracle{Status: wire.Disabled}
	}
	return wire.Oracle{Status: o.Status, ListVersion: optInt(o.ListVersion), Pending: o.Pending, TxHash: optString(o.TxHash), Error: optString(o.Error)}
}

type batchProofRequest struct {
	Addresses  []screening.Query `json:"addresses"`
	Multiproof bool              `json:"multiproof"`
	// ListVersion is "current" (or absent), "anchored" or a version
	// number, as a string or a number.
	ListVersion listVersionParam `json:"listVersion"`
}

// listVersionParam is the listVersion member of a batch request: a string
// ("current", "anchored", or a number in a string) or a JSON number.
type listVersionParam string

func (l *listVersionParam) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*l = listVersionParam(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return cairn.Errorf(cairn.EINVALID, "listVersion must be \"current\", \"anchored\" or a list version number.").With("field", "listVersion")
	}
	*l = listVersionParam(n.String())
	return nil
}

// merkleProofBatch is POST /v1/compliance/merkle-proof/batch: a proof per
// address and, with multiproof, one OpenZeppelin multiproof of all the
// listed ones.
func (s *Server) merkleProofBatch(c *gin.Context) error {
	var req batchProofRequest
	if err := bindJSON(c, &req, false); err != nil {
		return err
	}
	out, err := s.Compliance.ProveBatch(c.Request.Context(), s.complianceCaller(c), req.Addresses, req.Multiproof, string(req.ListVersion))
	if err != nil {
		return err
	}
	results := make([]wire.AddressProof, len(out.Proofs))
	for i, p := range out.Proofs {
		results[i] = proofJSON(p)
		if !p.Valid {
			results[i].Root = nil
		}
	}
	writeJSON(c, http.StatusOK, wire.MerkleProofBatch{Root: out.SanctionsRoot.String(), SanctionsRoot: out.SanctionsRoot.String(),
		CommunityRoot: out.CommunityRoot.String(), ListVersion: int64(out.ListVersion), LeafEncoding: compliance.LeafEncoding,
		Results: results, RateLimit: freeUsage(c, out.Usage), ExclusionRoot: out.ExclusionRoot.String(),
		CommunityExclusionRoot: out.CommunityExclusionRoot.String(), ExclusionLeafEncoding: compliance.ExclusionLeafEncoding,
		Multiproof: multiproofJSON(out.Multiproof), CommunityMultiproof: multiproofJSON(out.CommunityMultiproof),
		ExclusionMultiproof: gapMultiproofJSON(out.ExclusionMultiproof), CommunityExclusionMultiproof: gapMultiproofJSON(out.CommunityExclusionMultiproof)})
	return nil
}

// multiproofJSON renders a multiproof of listed addresses, nil for none.
func multiproofJSON(mp *compliance.Multiproof) *wire.Multiproof {
	if mp == nil {
		return nil
	}
	return &wire.Multiproof{Leaves: hashes(mp.Leaves), Values: mp.Values, Proof: hashes(mp.Proof), ProofFlags: mp.ProofFlags}
}

// gapMultiproofJSON renders a multiproof of exclusion gaps, nil for none.
func gapMultiproofJSON(mp *compliance.GapMultiproof) *wire.ExclusionMultiproof {
	if mp == nil {
		return nil
	}
	return &wire.ExclusionMultiproof{Leaves: hashes(mp.Leaves), Values: mp.Values, Proof: hashes(mp.Proof), ProofFlags: mp.ProofFlags}
}

// addressQuery reads the address and chain query parameters of a GET about
// one address: both required, a known chain (400 naming it), an address of
// the chain's family (400), and a loaded list (503). It returns them with
// the family and the canonical address.
func (s *Server) addressQuery(c *gin.Context) (addr, chain string, fam screening.Family, canon string, err error) {
	addr, chain = c.Query("address"), c.Query("chain")
	if fam, canon, err = compliance.ParseAddress(addr, chain); err != nil {
		return "", "", "", "", err
	}
	if err := s.Compliance.CheckReady(); err != nil {
		return "", "", "", "", err
	}
	return addr, chain, fam, canon, nil
}
