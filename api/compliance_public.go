package api

import (
	"net/http"
	"strings"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/wire"
	"github.com/gin-gonic/gin"
)

// The compliance endpoints read without an account, limited per client IP
// (see complianceRoutes): a stored screening proof, a sanctions source
// snapshot and the statistics.

// getProof is GET /v1/compliance/proofs/:screeningId: the stored proof
// document with the results it hashes; for an Accept that prefers
// text/html (a browser), the report page that verifies it (report.go).
//
// A proof it does not hold is a 404: for a browser a small HTML page under
// the report's Content-Security-Policy, else the not_found problem.
func (s *Server) getProof(c *gin.Context) error {
	id := c.Param("screeningId")
	c.Header("Vary", "Accept")
	html := negotiate(c.GetHeader("Accept"), proofOffers) == "text/html"
	doc, err := s.Compliance.Proof(c.Request.Context(), id)
	switch {
	case html && cairn.IsCode(err, cairn.ENOTFOUND):
		return s.writePage(c, http.StatusNotFound, notFoundTemplate, reportPage{ID: id})
	case err != nil:
		return err
	case html:
		return s.writeReport(c, id, doc)
	}
	writeJSON(c, http.StatusOK, doc)
	return nil
}

// getSnapshot is GET /v1/compliance/snapshots/:sha256: the raw copy of a
// sanctions source a list version was built from, by its SHA-256, so that
// anyone can check a proof's dataSnapshots (no account).
// Its 412 and 416 answers are problem documents, as media streams.
func (s *Server) getSnapshot(c *gin.Context) error {
	sum := c.Param("sha256")
	raw, size, err := s.Compliance.Snapshot(c.Request.Context(), sum)
	if err != nil {
		return err
	}
	rc := &lockedReader{rc: raw}
	defer rc.Close()
	if err := s.takeSnapshotBytes(c, size); err != nil {
		return err
	}
	c.Header("Content-Type", "application/octet-stream")
	c.Header("ETag", `"`+sum+`"`)
	c.Header("Cache-Control", "public, max-age=31536000, immutable")
	c.Header("X-Content-SHA256", sum)
	return serveContent(c, size, time.Time{}, rc)
}

// stats is GET /v1/compliance/stats (no auth; spec 4.20).
func (s *Server) stats(c *gin.Context) error {
	ix := s.Compliance.Screening.Current()
	last, sources := s.ingestStats()
	rs, err := s.Reports.Counts(c.Request.Context())
	if err != nil {
		return err
	}
	screenings, err := s.Compliance.ScreeningCount(c.Request.Context())
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, wire.ComplianceStatistics{
		Compliance: wire.ListStats{TotalAddresses: ix.Len(), BySource: ix.BySource(), LastIngestion: last,
			TotalScreenings: screenings, ListVersion: int64(ix.Version), Sources: sources},
		Community: wire.ReportStats{TotalReports: rs.Total, ByStatus: rs.ByStatus, ByCategory: rs.ByCategory},
	})
	return nil
}

// ingestStats returns the members lastIngestion (the source ingested
// last and when, or nil) and sources (each source's state) of the
// statistics; nil and none without an ingestion pipeline.
func (s *Server) ingestStats() (last *wire.LastIngestion, sources map[string]wire.SourceState) {
	if s.Ingest == nil {
		return nil, map[string]wire.SourceState{}
	}
	var at time.Time
	src := ""
	states := map[string]cairn.SourceVersion{}
	for name, st := range s.Ingest.States() {
		if st.IngestAt.After(at) {
			at, src = st.IngestAt, name
		}
		states[name] = cairn.SourceVersion{SHA256: st.Snapshot.SHA256, BlobName: st.Snapshot.BlobName,
			FetchedAt: st.IngestAt, Entries: st.Entries, LastError: st.LastError, FailedAt: st.FailedAt,
			Bundled: st.Snapshot.Bundled, SourceSHA256: st.Snapshot.SourceSHA256, SnapshotDate: st.Snapshot.SnapshotDate}
	}
	if src == "" {
		return nil, sourcesJSON(states)
	}
	li := &wire.LastIngestion{Source: src, At: wire.At(at)}
	if sv := states[src]; sv.Bundled {
		// The snapshot built into the binary, not a fetch: its date says how old it is.
		li.Bundled, li.SnapshotDate = true, sv.SnapshotDate
	}
	return li, sourcesJSON(states)
}

// takeSnapshotBytes counts the bytes a snapshot request will be served,
// in whole MiB (the ranges asked for, or the whole snapshot), against the
// client network's hourly budget (Limits.SnapshotMiBPerIP): over it, 429
// with Retry-After. A conditional request that will be answered 304 costs
// one MiB, as does an unsatisfiable range.
func (s *Server) takeSnapshotBytes(c *gin.Context, size int64) error {
	if !s.snapshotBytes.Enabled() {
		return nil
	}
	n := size
	if h := c.GetHeader("Range"); h != "" {
		if rs, ok := parseRanges(strings.TrimPrefix(h, "bytes="), size); ok && strings.HasPrefix(h, "bytes=") {
			n = 0
			for _, r := range rs {
				n += r.end - r.start + 1 // end inclusive
			}
		}
	}
	mib := max(1, int((n+(1<<20)-1)>>20))
	d := s.snapshotBytes.AllowN(clientNet(c), s.Clock.Now(), mib)
	if d.Allowed {
		return nil
	}
	c.Header("Retry-After", seconds(d.RetryAfter))
	return cairn.Errorf(cairn.ERATELIMIT, "The snapshot download budget of %d MiB per hour of this network is spent: this snapshot needs %d MiB. Retry in %s s.",
		s.snapshotBytes.Limit, mib, seconds(d.RetryAfter)).With("limit", s.snapshotBytes.Limit).With("policy", "snapshot-bytes")
}
