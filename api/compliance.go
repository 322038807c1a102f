package api

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"sync"

	"github.com/cairn-dev/cairn/compliance"
	"github.com/cairn-dev/cairn/screening"
	"github.com/cairn-dev/cairn/wire"
	"github.com/gin-gonic/gin"
)

// Screening limits (spec 8): see package compliance.
const (
	MaxScreenAddresses = compliance.MaxAddresses
	FreeScreensPerHour = compliance.FreePerWindow
)

// complianceRoutes registers the screening endpoints.
func (s *Server) complianceRoutes(v1 *gin.RouterGroup) {
	g := v1.Group("/compliance", s.agentOrDeveloperAuth, s.limited())
	g.POST("/screen", h(s.screen))
	g.GET("/merkle-proof", h(s.merkleProof))
	g.POST("/merkle-proof/batch", h(s.merkleProofBatch))
	g.GET("/history", h(s.listingHistory))
	v1.POST("/compliance/report", s.agentAuth, s.limited(), h(s.report))
	// The roots and their anchoring, and the list versions with their
	// changes: operators read them with the admin token too.
	v1.GET("/compliance/merkle-root", s.agentDeveloperOrAdminAuth, s.limited(), h(s.merkleRoot))
	v1.GET("/compliance/versions", s.agentDeveloperOrAdminAuth, s.limited(), h(s.listVersions))
	// A page of a version's changes costs the changes it skips: a deep
	// cursor into a large version reads that far, so each read counts
	// against the write limit too.
	scans := s.rateLimit(policy{name: "writes", l: s.writeLimit, key: byAgent, when: always})
	v1.GET("/compliance/versions/:version/changes", s.agentDeveloperOrAdminAuth, s.limited(), scans, h(s.versionChanges))
	// No account: the unguessable screening id is the capability a
	// screener hands to an auditor, and snapshots are public data named
	// by their digest; the statistics are public too. All are limited per
	// client network (an IPv6 client per /64).
	public := s.rateLimit(policy{name: "public", l: s.publicLimit, key: clientNet, when: always})
	v1.GET("/compliance/stats", public, h(s.stats))
	v1.GET("/compliance/proofs/:screeningId", public, h(s.getProof))
	v1.GET("/compliance/snapshots/:sha256", public, h(s.getSnapshot))
	v1.GET("/compliance/signing-keys", public, h(s.signingKeys))
}

type screenRequest struct {
	Addresses        []screening.Query `json:"addresses"`
	IncludeCommunity *bool             `json:"includeCommunity"`
}

// screen is POST /v1/compliance/screen (spec 4.18).
func (s *Server) screen(c *gin.Context) error {
	var req screenRequest
	if err := bindScreenRequest(c, &req); err != nil {
		return err
	}
	community := req.IncludeCommunity == nil || *req.IncludeCommunity
	out, err := s.Compliance.Screen(c.Request.Context(), s.complianceCaller(c), req.Addresses, community)
	if err != nil {
		return err
	}
	defer out.Release()
	return writeScreened(c, out)
}

// screenedBodies holds the buffers screening answers are assembled in:
// the body is written before the handler returns, and the buffer is free
// again.
var screenedBodies = sync.Pool{New: func() any { return new([]byte) }}

// writeScreened writes the answer of a screening: its results, data
// sources, proof document and rate limit. The body is assembled around
// the results and proof bytes, so that the bytes resultsHash hashes are
// served as they are, encoded once; its members are in the order
// json.Marshal of a map gives (results first).
func writeScreened(c *gin.Context, out *compliance.Screened) error {
	sources, err := json.Marshal(out.DataSources)
	if err != nil {
		return err
	}
	usage, err := json.Marshal(freeUsage(c, out.Usage))
	if err != nil {
		return err
	}
	bp := screenedBodies.Get().(*[]byte)
	body := slices.Grow((*bp)[:0], len(out.Results)+len(sources)+len(out.Proof)+len(usage)+64)
	body = append(append(body, `{"results":`...), out.Results...)
	body = append(append(body, `,"dataSources":`...), sources...)
	body = append(append(body, `,"proof":`...), out.Proof...)
	body = append(append(body, `,"rateLimit":`...), usage...)
	body = append(body, '}', '\n')
	c.Data(http.StatusOK, jsonContentType, body)
	*bp = body
	screenedBodies.Put(bp)
	return nil
}

// complianceCaller is the principal of a compliance request.
func (s *Server) complianceCaller(c *gin.Context) compliance.Principal {
	p := principalOf(c)
	out := compliance.Principal{DeveloperID: p.DeveloperID, RequestID: requestID(c)}
	if p.Agent != nil {
		out.AgentID = p.Agent.ID
	}
	return out
}

// freeUsage sets the X-RateLimit-Free-* headers of a billed compliance
// answer and returns its rateLimit object: the free tier's use and what
// was billed.
func freeUsage(c *gin.Context, u compliance.Usage) wire.ScreeningRateLimit {
	hd := c.Writer.Header()
	hd.Set("X-RateLimit-Free-Limit", strconv.Itoa(u.FreeLimit))
	hd.Set("X-RateLimit-Free-Remaining", strconv.Itoa(u.FreeRemaining))
	hd.Set("X-RateLimit-Free-Reset", timestamp(u.FreeReset))
	hd.Set("X-RateLimit-Billable", strconv.Itoa(u.Billable))
	return wire.ScreeningRateLimit{FreeLimit: u.FreeLimit, FreeRemaining: u.FreeRemaining, FreeReset: wire.At(u.FreeReset),
		BillableAddresses: u.Billable, CreditCharged: u.Charged}
}
