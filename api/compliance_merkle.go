package api

import (
	"encoding/json"
	"net/http"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/compliance"
	"github.com/cairn-dev/cairn/screening"
	"github.com/gin-gonic/gin"
)

// merkleProof is GET /v1/compliance/merkle-proof?address=&chain=.
func (s *Server) merkleProof(c *gin.Context) error {
	out, err := s.Compliance.Prove(c.Request.Context(), s.complianceCaller(c), c.Query("address"), c.Query("chain"), c.Query("listVersion"))
	if err != nil {
		return err
	}
	body := proofJSON(out.Proofs[0])
	delete(body, "valid")
	body["leafEncoding"], body["listVersion"] = compliance.LeafEncoding, out.ListVersion
	body["sanctionsRoot"], body["communityRoot"] = out.SanctionsRoot, out.CommunityRoot
	body["exclusionLeafEncoding"] = compliance.ExclusionLeafEncoding
	body["exclusionRoot"], body["communityExclusionRoot"] = out.ExclusionRoot, out.CommunityExclusionRoot
	body["rateLimit"] = freeUsage(c, out.Usage)
	writeJSON(c, http.StatusOK, body)
	return nil
}

// proofJSON renders the proof of one address.
func proofJSON(p compliance.AddressProof) gin.H {
	var class any
	if p.Class != "" {
		class = p.Class
	}
	out := gin.H{"address": p.Address, "chain": p.Chain, "family": p.Family, "canonicalAddress": p.Canonical,
		"valid": p.Valid, "class": class, "sanctioned": p.Sanctioned, "listed": p.Listed, "leaf": p.Leaf, "proof": p.Proof,
		"root": p.Root}
	if p.Exclusion != nil {
		out["exclusionProof"] = exclusionJSON(p.Exclusion)
	}
	if p.CommunityExclusion != nil {
		out["communityExclusionProof"] = exclusionJSON(p.CommunityExclusion)
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
func exclusionJSON(e *compliance.ExclusionProof) gin.H {
	low, high := e.Low, e.High
	if e.Family == screening.EVM {
		if low == "" {
			low = evmLowSentinel
		}
		if high == "" {
			high = evmHighSentinel
		}
	}
	return gin.H{"low": low, "high": high, "value": [3]string{string(e.Family), e.Low, e.High}, "leaf": e.Leaf,
		"proof": e.Proof, "root": e.Root}
}

// merkleRoot is GET /v1/compliance/merkle-root: the roots of the current
// list version and their anchoring.
func (s *Server) merkleRoot(c *gin.Context) error {
	r := s.Compliance.Roots(c.Request.Context())
	var built any
	if !r.BuiltAt.IsZero() {
		built = timestamp(r.BuiltAt)
	}
	writeJSON(c, http.StatusOK, gin.H{
		"root": r.SanctionsRoot, "sanctionsRoot": r.SanctionsRoot, "communityRoot": r.CommunityRoot, "listVersion": r.ListVersion,
		"leafCount": r.SanctionsLeaves, "sanctionsLeafCount": r.SanctionsLeaves, "communityLeafCount": r.CommunityLeaves,
		"exclusionRoot": r.ExclusionRoot, "communityExclusionRoot": r.CommunityExclusionRoot,
		"exclusionLeafCount": r.ExclusionLeaves, "communityExclusionLeafCount": r.CommunityExclusionLeaves,
		"exclusionLeafEncoding": compliance.ExclusionLeafEncoding,
		"builtAt":               built, "anchor": anchorJSON(r), "oracle": oracleJSON(r),
	})
	return nil
}

// anchorJSON renders the anchoring state of r: only the status when
// anchoring is off, else every field (null until known).
func anchorJSON(r compliance.Roots) gin.H {
	a := r.Anchor
	if a.Status == compliance.AnchorDisabled {
		return gin.H{"status": a.Status}
	}
	out := gin.H{"status": a.Status, "chainId": a.ChainID, "contract": a.Contract, "listVersion": nil, "txHash": nil,
		"blockNumber": nil, "syncedAt": nil, "error": nilIfEmpty(a.Error)}
	if a.ListVersion != 0 {
		out["listVersion"] = a.ListVersion
	}
	if a.TxHash != "" {
		out["txHash"] = a.TxHash
	}
	if a.BlockNumber != 0 {
		out["blockNumber"] = a.BlockNumber
	}
	if !a.SyncedAt.IsZero() {
		out["syncedAt"] = timestamp(a.SyncedAt)
	}
	return out
}

// oracleJSON renders the state of the contract's isSanctioned(address)
// storage: only the status when it is not kept.
func oracleJSON(r compliance.Roots) gin.H {
	o := r.Oracle
	if o.Status == compliance.OracleDisabled {
		return gin.H{"status": o.Status}
	}
	out := gin.H{"status": o.Status, "listVersion": nil, "pending": o.Pending, "txHash": nilIfEmpty(o.TxHash), "error": nilIfEmpty(o.Error)}
	if o.ListVersion != 0 {
		out["listVersion"] = o.ListVersion
	}
	return out
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
	results := make([]gin.H, len(out.Proofs))
	for i, p := range out.Proofs {
		results[i] = proofJSON(p)
		if !p.Valid {
			results[i]["root"] = nil
		}
	}
	body := gin.H{"root": out.SanctionsRoot, "sanctionsRoot": out.SanctionsRoot, "communityRoot": out.CommunityRoot,
		"listVersion": out.ListVersion, "leafEncoding": compliance.LeafEncoding, "results": results, "rateLimit": freeUsage(c, out.Usage),
		"exclusionRoot": out.ExclusionRoot, "communityExclusionRoot": out.CommunityExclusionRoot,
		"exclusionLeafEncoding": compliance.ExclusionLeafEncoding}
	for name, mp := range map[string]*compliance.Multiproof{"multiproof": out.Multiproof, "communityMultiproof": out.CommunityMultiproof} {
		if mp != nil {
			body[name] = gin.H{"leaves": mp.Leaves, "values": mp.Values, "proof": mp.Proof, "proofFlags": mp.ProofFlags}
		}
	}
	for name, mp := range map[string]*compliance.GapMultiproof{"exclusionMultiproof": out.ExclusionMultiproof, "communityExclusionMultiproof": out.CommunityExclusionMultiproof} {
		if mp != nil {
			body[name] = gin.H{"leaves": mp.Leaves, "values": mp.Values, "proof": mp.Proof, "proofFlags": mp.ProofFlags}
		}
	}
	writeJSON(c, http.StatusOK, body)
	return nil
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
