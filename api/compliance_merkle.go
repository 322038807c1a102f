package api

import (
	"encoding/hex"
	"net/http"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/merkle"
	"github.com/cairn-dev/cairn/screening"
	"github.com/gin-gonic/gin"
)

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

func hexHashes(hs []merkle.Hash) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = "0x" + hex.EncodeToString(h[:])
	}
	return out
}

// merkleProof is GET /v1/compliance/merkle-proof?address=&chain=.
func (s *Server) merkleProof(c *gin.Context) error {
	addr, chain, fam, canon, err := s.addressQuery(c)
	if err != nil {
		return err
	}
	ix := s.Screening.Current()
	leaf, proof, ok := ix.Proof(fam, canon)
	if !ok {
		leaf = merkle.LeafHashStrings2(string(fam), canon)
	}
	root := ix.Root()
	writeJSON(c, http.StatusOK, gin.H{
		"address": addr, "chain": chain, "family": fam, "canonicalAddress": canon, "sanctioned": ok && sanctionedIn(ix, fam, canon), "listed": ok,
		"leaf": "0x" + hex.EncodeToString(leaf[:]), "proof": hexHashes(proof), "leafEncoding": []string{"string", "string"},
		"root": "0x" + hex.EncodeToString(root[:]), "listVersion": ix.Version,
	})
	return nil
}

// merkleRoot is GET /v1/compliance/merkle-root.
func (s *Server) merkleRoot(c *gin.Context) error {
	ix := s.Screening.Current()
	root := ix.Root()
	var built any
	if !ix.BuiltAt.IsZero() {
		built = timestamp(ix.BuiltAt)
	}
	writeJSON(c, http.StatusOK, gin.H{
		"root": "0x" + hex.EncodeToString(root[:]), "listVersion": ix.Version, "leafCount": ix.Len(), "builtAt": built,
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
	if n := len(req.Addresses); n == 0 || n > MaxScreenAddresses {
		return cairn.Errorf(cairn.EINVALID, "addresses must hold 1 to %d items.", MaxScreenAddresses).With("field", "addresses")
	}
	for i, q := range req.Addresses {
		if _, err := screening.ChainFamily(q.Chain); err != nil {
			return cairn.Errorf(cairn.EINVALID, "addresses[%d]: unknown chain %q.", i, clip(q.Chain)).With("chain", clip(q.Chain))
		}
	}
	if err := s.listReady(); err != nil {
		return err
	}
	ix := s.Screening.Current()
	results := make([]gin.H, len(req.Addresses))
	var listed [][2]string
	for i, q := range req.Addresses {
		fam, err := screening.ChainFamily(q.Chain)
		if err != nil {
			return cairn.Errorf(cairn.EINVALID, "addresses[%d]: unknown chain %q.", i, clip(q.Chain)).With("chain", clip(q.Chain))
		}
		canon, st := screening.Normalize(fam, q.Address)
		r := gin.H{"address": q.Address, "chain": q.Chain, "family": fam, "canonicalAddress": canon,
			"valid": st != screening.StatusInvalid, "sanctioned": false, "listed": false, "leaf": nil, "proof": []string{}}
		if st != screening.StatusInvalid {
			leaf, proof, ok := ix.Proof(fam, canon)
			if !ok {
				leaf = merkle.LeafHashStrings2(string(fam), canon)
			} else {
				listed = append(listed, [2]string{string(fam), canon})
			}
			r["sanctioned"], r["listed"] = ok && sanctionedIn(ix, fam, canon), ok
			r["leaf"], r["proof"] = "0x"+hex.EncodeToString(leaf[:]), hexHashes(proof)
		}
		results[i] = r
	}
	root := ix.Root()
	out := gin.H{"root": "0x" + hex.EncodeToString(root[:]), "listVersion": ix.Version, "leafEncoding": []string{"string", "string"}, "results": results}
	if req.Multiproof {
		mp, values, err := ix.MultiProof(listed)
		if err != nil {
			return err
		}
		out["multiproof"] = gin.H{"leaves": hexHashes(mp.Leaves), "values": values, "proof": hexHashes(mp.Proof), "proofFlags": mp.ProofFlags}
	}
	writeJSON(c, http.StatusOK, out)
	return nil
}

// addressQuery reads the address and chain query parameters of a GET about
// one address: both required, a known chain (400 naming it), an address of
// the chain's family (400), and a loaded list (503). It returns them with
// the family and the canonical address.
func (s *Server) addressQuery(c *gin.Context) (addr, chain string, fam screening.Family, canon string, err error) {
	addr, chain = c.Query("address"), c.Query("chain")
	if addr == "" || chain == "" {
		return "", "", "", "", cairn.Errorf(cairn.EINVALID, "address and chain are required.")
	}
	if fam, err = screening.ChainFamily(chain); err != nil {
		return "", "", "", "", cairn.Errorf(cairn.EINVALID, "Unknown chain %q.", clip(chain)).With("chain", clip(chain))
	}
	canon, st := screening.Normalize(fam, addr)
	if st == screening.StatusInvalid {
		return "", "", "", "", cairn.Errorf(cairn.EINVALID, "%q is not a %s address.", clip(addr), fam).With("field", "address")
	}
	if err := s.listReady(); err != nil {
		return "", "", "", "", err
	}
	return addr, chain, fam, canon, nil
}
