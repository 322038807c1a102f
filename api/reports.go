package api

import (
	"net/http"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/compliance"
	"github.com/gin-gonic/gin"
)

// ReportsPerHour bounds the reports of one developer account (spec
// 4.19).
const ReportsPerHour = 20

const reportDisclaimer = "Community reports are provided as-is by users of the service and are not verified. " +
	"Sanctions data comes as-is from public sources. Neither is legal advice."

// report is POST /v1/compliance/report (free).
func (s *Server) report(c *gin.Context) error {
	var in compliance.ReportInput
	if err := bindJSON(c, &in, false); err != nil {
		return err
	}
	a := agentOf(c)
	if d := s.reportLimit.allow(a.DeveloperID, s.Clock.Now()); !d.allowed {
		c.Header("Retry-After", seconds(d.retryAfter))
		return cairn.Errorf(cairn.ERATELIMIT, "At most %d reports per hour per account.", ReportsPerHour).
			With("limit", ReportsPerHour).With("policy", "reports")
	}
	r, err := s.Reports.Report(c.Request.Context(), compliance.Principal{DeveloperID: a.DeveloperID, AgentID: a.ID,
		RequestID: requestID(c)}, in)
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusCreated, gin.H{"reportId": r.ID, "status": r.Status, "autoEscalated": r.AutoEscalated,
		"countsTowardEscalation": r.Established, "disclaimer": reportDisclaimer})
	return nil
}

// stats is GET /v1/compliance/stats (no auth; spec 4.20).
func (s *Server) stats(c *gin.Context) error {
	ix := s.Compliance.Screening.Current()
	var last any
	sources := gin.H{}
	if s.Ingest != nil {
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
		if src != "" {
			li := gin.H{"source": src, "at": timestamp(at)}
			if sv := states[src]; sv.Bundled {
				// The snapshot built into the binary, not a fetch: its date says how old it is.
				li["bundled"], li["snapshotDate"] = true, sv.SnapshotDate
			}
			last = li
		}
		sources = sourcesJSON(states)
	}
	rs, err := s.Reports.Counts(c.Request.Context())
	if err != nil {
		return err
	}
	screenings, err := s.Compliance.ScreeningCount(c.Request.Context())
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, gin.H{
		"compliance": gin.H{"totalAddresses": ix.Len(), "bySource": ix.BySource(), "lastIngestion": last,
			"totalScreenings": screenings, "listVersion": ix.Version, "sources": sources},
		"community": gin.H{"totalReports": rs.Total, "byStatus": rs.ByStatus, "byCategory": rs.ByCategory},
	})
	return nil
}
