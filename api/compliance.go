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
	"github.com/cairn-dev/cairn/screening"
	"github.com/cairn-dev/cairn/store"
	"github.com/gin-gonic/gin"
)

// Screening limits (spec 8).
const (
	MaxScreenAddresses = 100
	FreeScreensPerHour = 10
)

// Ingester runs an ingestion, rebuilds the list after a community
// escalation and reports sources, versions and history (ingest.Pipeline).
type Ingester interface {
	Run(ctx context.Context) (*ingest.Result, error)
	Escalated(ctx context.Context) error
	Ready() bool
	States() map[string]ingest.SourceState
	History(ctx context.Context, f screening.Family, canonical string) ([]store.ListChange, error)
	Versions(ctx context.Context, before uint64, limit int) ([]store.ListVersion, error)
}

// complianceRoutes registers the screening endpoints.
func (s *Server) complianceRoutes(v1 *gin.RouterGroup) {
	g := v1.Group("/compliance", s.agentOrDeveloperAuth, s.limited())
	g.POST("/screen", s.paid(billing.OpScreen), h(s.screen))
	g.GET("/merkle-proof", h(s.merkleProof))
	g.POST("/merkle-proof/batch", h(s.merkleProofBatch))
	g.GET("/merkle-root", h(s.merkleRoot))
	g.GET("/proofs/:screeningId", h(s.getProof))
	g.GET("/history", h(s.listingHistory))
	g.GET("/versions", h(s.listVersions))
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
	community := req.IncludeCommunity == nil || *req.IncludeCommunity
	results, err := ix.Screen(req.Addresses, community)
	if err != nil {
		return err // an unknown chain is the client's mistake, list or not
	}
	if err := s.listReady(); err != nil {
		return err
	}
	now := s.Clock.Now()
	dev := principalOf(c).DeveloperID
	take, err := s.takeFree(c, dev, n, now)
	if err != nil {
		return err
	}
	remaining, reset := take.Remaining, take.Reset
	billable := n - take.Free
	if err := chargeMore(c, billing.OpScreen, int64(billable)); err != nil {
		s.giveBackFree(c, dev, take)
		return err
	}
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
		DataSources: []string{}, DataSnapshots: map[string]ingest.Snapshot{},
		ListVersion: ix.Version, MerkleRoot: "0x" + hex.EncodeToString(root[:]),
	}
	for _, src := range ix.Sources {
		// Without includeCommunity the community source is not consulted.
		if community || src != screening.SourceCommunity {
			proof.DataSources = append(proof.DataSources, src)
		}
	}
	for name, snap := range ix.Snapshots {
		if community || name != screening.SourceCommunity {
			proof.DataSnapshots[name] = snap
		}
	}
	// The documents are assembled around the results bytes, so that the
	// hashed bytes are served and stored as they are, encoded once.
	proofJSON, err := json.Marshal(proof)
	if err != nil {
		return err
	}
	stored := make([]byte, 0, len(proofJSON)+len(resultsJSON)+16)
	stored = append(append(append(stored, proofJSON[:len(proofJSON)-1]...), `,"results":`...), resultsJSON...)
	stored = append(stored, '}')
	if _, err := s.Blobs.Put(c.Request.Context(), "proofs/"+proof.ScreeningID+".json", bytes.NewReader(stored),
		blob.PutOptions{ContentType: "application/json"}); err != nil {
		s.giveBackFree(c, dev, take)
		return cairn.Errorf(cairn.EUPSTREAM, "Storing the screening proof failed.")
	}
	if err := s.Screenings.AddScreenings(c.Request.Context(), 1); err != nil {
		// The count is a statistic: the screening goes on.
		s.Logger.ErrorContext(c.Request.Context(), "counting a screening failed", "err", err)
	}
	rest, err := json.Marshal(gin.H{"dataSources": proof.DataSources, "proof": json.RawMessage(proofJSON),
		"rateLimit": gin.H{"freeLimit": FreeScreensPerHour, "freeRemaining": remaining, "freeReset": timestamp(reset),
			"billableAddresses": billable, "creditCharged": billable}})
	if err != nil {
		return err
	}
	body := make([]byte, 0, len(resultsJSON)+len(rest)+16)
	body = append(append(append(body, `{"results":`...), resultsJSON...), ',')
	body = append(append(body, rest[1:]...), '\n')
	hd := c.Writer.Header()
	hd.Set("X-RateLimit-Free-Limit", strconv.Itoa(FreeScreensPerHour))
	hd.Set("X-RateLimit-Free-Remaining", strconv.Itoa(remaining))
	hd.Set("X-RateLimit-Free-Reset", timestamp(reset))
	hd.Set("X-RateLimit-Billable", strconv.Itoa(billable))
	c.Data(http.StatusOK, "application/json; charset=utf-8", body)
	return nil
}

// listReady refuses an answer about an address while no sanctions list was
// ever loaded (every source failed): an empty list would say clear.
func (s *Server) listReady() error {
	if s.Ingest != nil && !s.Ingest.Ready() {
		return cairn.Errorf(cairn.EUNAVAILABLE, "No sanctions list is loaded (no source is configured, or every source failed so far); screening is refused rather than answered clear.")
	}
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
