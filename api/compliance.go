package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/billing"
	"github.com/cairn-dev/cairn/blob"
	"github.com/cairn-dev/cairn/ingest"
	"github.com/cairn-dev/cairn/merkle"
	"github.com/cairn-dev/cairn/screening"
	"github.com/gin-gonic/gin"
)

// Screening limits (spec 8).
const (
	MaxScreenAddresses = 100
	FreeScreensPerHour = 10
)

// Ingester runs an ingestion and reports its sources (ingest.Pipeline).
type Ingester interface {
	Run(ctx context.Context) (*ingest.Result, error)
	Rebuild(ctx context.Context) (*screening.Index, error)
	States() map[string]ingest.SourceState
}

// complianceRoutes registers the screening endpoints.
func (s *Server) complianceRoutes(v1 *gin.RouterGroup) {
	g := v1.Group("/compliance", s.agentOrDeveloperAuth, s.limited())
	g.POST("/screen", s.paid(billing.OpScreen), h(s.screen))
	g.GET("/merkle-proof", h(s.merkleProof))
	g.POST("/merkle-proof/batch", h(s.merkleProofBatch))
	g.GET("/merkle-root", h(s.merkleRoot))
	g.GET("/proofs/:screeningId", h(s.getProof))
	v1.POST("/compliance/report", s.agentAuth, s.limited(), h(s.report))
	v1.GET("/compliance/stats", h(s.stats))
}

type screenRequest struct {
	Addresses        []screening.Query `json:"addresses"`
	IncludeCommunity *bool             `json:"includeCommunity"`
}

type screenResult struct {
	screening.Result
	ScreenedAt string `json:"screenedAt"`
}

// proofDoc is the stored, independently verifiable record of a screening.
type proofDoc struct {
	ScreeningID   string                     `json:"screeningId"`
	Timestamp     string                     `json:"timestamp"`
	ResultsHash   string                     `json:"resultsHash"`
	DataSources   []string                   `json:"dataSources"`
	DataSnapshots map[string]ingest.Snapshot `json:"dataSnapshots"`
	ListVersion   uint64                     `json:"listVersion"`
	MerkleRoot    string                     `json:"merkleRoot"`
}

// screen is POST /v1/compliance/screen (spec 4.18).
func (s *Server) screen(c *gin.Context) error {
	var req screenRequest
	if err := bindJSON(c, &req, false); err != nil {
		return err
	}
	n := len(req.Addresses)
	if n == 0 || n > MaxScreenAddresses {
		return cairn.Errorf(cairn.EINVALID, "addresses must hold 1 to %d items.", MaxScreenAddresses).With("field", "addresses")
	}
	ix := s.Screening.Current()
	results, err := ix.Screen(req.Addresses, req.IncludeCommunity == nil || *req.IncludeCommunity)
	if err != nil {
		return err
	}
	now := s.Clock.Now()
	dev := principalOf(c).DeveloperID
	free, remaining, reset := s.free.take(dev, n, now)
	billable := n - free
	if err := chargeMore(c, billing.OpScreen, int64(billable)); err != nil {
		s.free.giveBack(dev, free)
		return err
	}
	s.screenings.Add(1)
	at := timestamp(now)
	out := make([]screenResult, n)
	for i, r := range results {
		out[i] = screenResult{Result: r, ScreenedAt: at}
	}
	resultsJSON, _ := json.Marshal(out)
	sum := sha256.Sum256(resultsJSON)
	root := ix.Root()
	proof := proofDoc{
		ScreeningID: cairn.NewID(), Timestamp: at, ResultsHash: hex.EncodeToString(sum[:]),
		DataSources: append([]string{}, ix.Sources...), DataSnapshots: map[string]ingest.Snapshot{},
		ListVersion: ix.Version, MerkleRoot: "0x" + hex.EncodeToString(root[:]),
	}
	if s.Ingest != nil {
		for name, st := range s.Ingest.States() {
			if st.Snapshot.BlobName != "" {
				proof.DataSnapshots[name] = st.Snapshot
			}
		}
	}
	stored, _ := json.Marshal(struct {
		proofDoc
		Results json.RawMessage `json:"results"`
	}{proof, resultsJSON})
	if _, err := s.Blobs.Put(c.Request.Context(), "proofs/"+proof.ScreeningID+".json", bytes.NewReader(stored),
		blob.PutOptions{ContentType: "application/json"}); err != nil {
		return cairn.Errorf(cairn.EUPSTREAM, "Storing the screening proof failed.")
	}
	hd := c.Writer.Header()
	hd.Set("X-RateLimit-Free-Limit", strconv.Itoa(FreeScreensPerHour))
	hd.Set("X-RateLimit-Free-Remaining", strconv.Itoa(remaining))
	hd.Set("X-RateLimit-Free-Reset", timestamp(reset))
	hd.Set("X-RateLimit-Billable", strconv.Itoa(billable))
	writeJSON(c, http.StatusOK, gin.H{
		"results": json.RawMessage(resultsJSON), "dataSources": proof.DataSources, "proof": proof,
		"rateLimit": gin.H{"freeLimit": FreeScreensPerHour, "freeRemaining": remaining, "freeReset": timestamp(reset),
			"billableAddresses": billable, "creditCharged": billable},
	})
	return nil
}

// getProof is GET /v1/compliance/proofs/:screeningId: the stored proof
// document with the results it hashes.
func (s *Server) getProof(c *gin.Context) error {
	id := c.Param("screeningId")
	if !cairn.ValidID(id) {
		return cairn.Errorf(cairn.ENOTFOUND, "Screening proof not found.")
	}
	rc, _, err := s.Blobs.Get(c.Request.Context(), "proofs/"+id+".json", 0, -1)
	if cairn.IsCode(err, cairn.ENOTFOUND) {
		return cairn.Errorf(cairn.ENOTFOUND, "Screening proof not found.")
	} else if err != nil {
		return cairn.Errorf(cairn.EUPSTREAM, "Reading the screening proof failed.")
	}
	defer rc.Close()
	var doc json.RawMessage
	if err := json.NewDecoder(rc).Decode(&doc); err != nil {
		return cairn.Errorf(cairn.EUPSTREAM, "Reading the screening proof failed.")
	}
	writeJSON(c, http.StatusOK, doc)
	return nil
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
	addr, chain := c.Query("address"), c.Query("chain")
	if addr == "" || chain == "" {
		return cairn.Errorf(cairn.EINVALID, "address and chain are required.")
	}
	ix := s.Screening.Current()
	fam, err := screening.ChainFamily(chain)
	if err != nil {
		return cairn.Errorf(cairn.EINVALID, "Unknown chain %q.", chain).With("chain", chain)
	}
	canon, st := screening.Normalize(fam, addr)
	if st == screening.StatusInvalid {
		return cairn.Errorf(cairn.EINVALID, "%q is not a %s address.", addr, fam).With("field", "address")
	}
	leaf, proof, ok := ix.Proof(fam, canon)
	if !ok {
		leaf = merkle.LeafHashStrings2(string(fam), canon)
	}
	root := ix.Root()
	writeJSON(c, http.StatusOK, gin.H{
		"address": addr, "chain": chain, "family": fam, "canonicalAddress": canon, "sanctioned": ok,
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
	ix := s.Screening.Current()
	results := make([]gin.H, len(req.Addresses))
	var listed [][2]string
	for i, q := range req.Addresses {
		fam, err := screening.ChainFamily(q.Chain)
		if err != nil {
			return cairn.Errorf(cairn.EINVALID, "addresses[%d]: unknown chain %q.", i, q.Chain).With("chain", q.Chain)
		}
		canon, st := screening.Normalize(fam, q.Address)
		r := gin.H{"address": q.Address, "chain": q.Chain, "family": fam, "canonicalAddress": canon,
			"valid": st != screening.StatusInvalid, "sanctioned": false, "leaf": nil, "proof": []string{}}
		if st != screening.StatusInvalid {
			leaf, proof, ok := ix.Proof(fam, canon)
			if !ok {
				leaf = merkle.LeafHashStrings2(string(fam), canon)
			} else {
				listed = append(listed, [2]string{string(fam), canon})
			}
			r["sanctioned"], r["leaf"], r["proof"] = ok, "0x"+hex.EncodeToString(leaf[:]), hexHashes(proof)
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
