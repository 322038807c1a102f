package api

import (
	"net/http"

	"github.com/cairn-dev/cairn/compliance"
	"github.com/cairn-dev/cairn/screening"
	"github.com/gin-gonic/gin"
)

// merkleProof is GET /v1/compliance/merkle-proof?address=&chain=.
func (s *Server) merkleProof(c *gin.Context) error {
	out, err := s.compliance.Prove(c.Request.Context(), s.complianceCaller(c), c.Query("address"), c.Query("chain"))
	if err != nil {
		return err
	}
	p := out.Proofs[0]
	writeJSON(c, http.StatusOK, gin.H{
		"address": p.Address, "chain": p.Chain, "family": p.Family, "canonicalAddress": p.Canonical,
		"sanctioned": p.Sanctioned, "listed": p.Listed, "leaf": p.Leaf, "proof": p.Proof,
		"leafEncoding": compliance.LeafEncoding, "root": out.Root, "listVersion": out.ListVersion,
		"rateLimit": rateLimit(c, out.Usage),
	})
	return nil
}

// merkleRoot is GET /v1/compliance/merkle-root.
func (s *Server) merkleRoot(c *gin.Context) error {
	ix := s.Screening.Current()
	var built any
	if !ix.BuiltAt.IsZero() {
		built = timestamp(ix.BuiltAt)
	}
	writeJSON(c, http.StatusOK, gin.H{
		"root": ix.Root(), "listVersion": ix.Version, "leafCount": ix.Len(), "builtAt": built,
		"anchor": gin.H{"status": "disabled"},
	})
	return nil
}

type batchProofRequest struct {
	Addresses  []screening.Query `json:"addresses"`
	Multiproof bool              `json:"multiproof"`
}

// merkleProofBatch is POST /v1/compliance/merkle-proof/batch: a proof per
// address and, with multiproof, one OpenZeppelin multiproof of all the
// listed ones.
func (s *Server) merkleProofBatch(c *gin.Context) error {
	var req batchProofRequest
	if err := bindJSON(c, &req, false); err != nil {
		return err
	}
	out, err := s.compliance.ProveBatch(c.Request.Context(), s.complianceCaller(c), req.Addresses, req.Multiproof)
	if err != nil {
		return err
	}
	results := make([]gin.H, len(out.Proofs))
	for i, p := range out.Proofs {
		results[i] = gin.H{"address": p.Address, "chain": p.Chain, "family": p.Family, "canonicalAddress": p.Canonical,
			"valid": p.Valid, "sanctioned": p.Sanctioned, "listed": p.Listed, "leaf": p.Leaf, "proof": p.Proof}
	}
	body := gin.H{"root": out.Root, "listVersion": out.ListVersion, "leafEncoding": compliance.LeafEncoding, "results": results,
		"rateLimit": rateLimit(c, out.Usage)}
	if mp := out.Multiproof; mp != nil {
		body["multiproof"] = gin.H{"leaves": mp.Leaves, "values": mp.Values, "proof": mp.Proof, "proofFlags": mp.ProofFlags}
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
	if err := s.compliance.CheckReady(); err != nil {
		return "", "", "", "", err
	}
	return addr, chain, fam, canon, nil
}
