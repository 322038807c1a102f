package api

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/screening"
	"github.com/cairn-dev/cairn/store"
	"github.com/gin-gonic/gin"
)

// Community reports (spec 4.19, 3.2).
const (
	// EscalationThreshold is how many distinct developer accounts must
	// report an address before it enters the community source.
	EscalationThreshold = 3
	// ReportsPerHour bounds the reports of one developer account.
	ReportsPerHour = 20
	maxReasonLen   = 2000
	maxEvidence    = 10
)

const reportDisclaimer = "Community reports are provided as-is by users of the service and are not verified. " +
	"Sanctions data comes as-is from public sources. Neither is legal advice."

type reportRequest struct {
	Address  string   `json:"address"`
	Chain    string   `json:"chain"`
	Category string   `json:"category"`
	Reason   string   `json:"reason"`
	Evidence []string `json:"evidence"`
}

// validate checks the report and returns the address family and canonical
// form (the family is detected when no chain is given).
func (r *reportRequest) validate() (screening.Family, string, error) {
	field := func(f, msg string) error { return cairn.Errorf(cairn.EINVALID, "%s", msg).With("field", f) }
	r.Address, r.Reason = strings.TrimSpace(r.Address), strings.TrimSpace(r.Reason)
	switch {
	case r.Address == "":
		return "", "", field("address", "address is required.")
	case !slices.Contains(cairn.ReportCategories, r.Category):
		return "", "", field("category", "category must be one of "+strings.Join(cairn.ReportCategories, ", ")+".")
	case r.Reason == "" || len(r.Reason) > maxReasonLen:
		return "", "", field("reason", "reason is required (at most 2000 bytes).")
	case len(r.Evidence) > maxEvidence:
		return "", "", field("evidence", "evidence holds at most 10 URLs.")
	}
	for _, e := range r.Evidence {
		u, err := url.Parse(e)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || len(e) > 2048 {
			return "", "", field("evidence", "evidence must be http(s) URLs.")
		}
	}
	families := screening.Families()
	if r.Chain != "" {
		f, err := screening.ChainFamily(r.Chain)
		if err != nil {
			return "", "", field("chain", "unknown chain "+clip(r.Chain)+".")
		}
		families = []screening.Family{f}
	}
	for _, f := range families {
		if canon, st := screening.Normalize(f, r.Address); st != screening.StatusInvalid {
			return f, canon, nil
		}
	}
	return "", "", field("address", "address is not a valid address of the chain.")
}

// report is POST /v1/compliance/report (free).
func (s *Server) report(c *gin.Context) error {
	var req reportRequest
	if err := bindJSON(c, &req, false); err != nil {
		return err
	}
	fam, canon, err := req.validate()
	if err != nil {
		return err
	}
	a := agentOf(c)
	if d := s.reportLimit.allow(a.DeveloperID, s.Clock.Now()); !d.allowed {
		c.Header("Retry-After", seconds(d.retryAfter))
		return cairn.Errorf(cairn.ERATELIMIT, "At most %d reports per hour per account.", ReportsPerHour).
			With("limit", ReportsPerHour).With("policy", "reports")
	}
	r := &cairn.Report{
		ID: cairn.NewID(), DeveloperID: a.DeveloperID, AgentID: a.ID, Address: req.Address, Chain: req.Chain,
		Family: string(fam), Canonical: canon, Category: req.Category, Reason: req.Reason, Evidence: req.Evidence,
		Status: cairn.ReportPending, CreatedAt: s.Clock.Now(),
	}
	if _, err := s.Reports.AddReport(c.Request.Context(), r, EscalationThreshold); err != nil {
		return err
	}
	if r.AutoEscalated && s.Ingest != nil {
		if err := s.Ingest.Escalated(context.WithoutCancel(c.Request.Context())); err != nil {
			s.Logger.ErrorContext(c.Request.Context(), "rebuild after escalation failed", "err", err)
		}
	}
	writeJSON(c, http.StatusCreated, gin.H{"reportId": r.ID, "status": r.Status, "autoEscalated": r.AutoEscalated, "disclaimer": reportDisclaimer})
	return nil
}

// CommunityListings turns the escalated addresses into listings of the
// community source (for ingest.Pipeline.Community).
func CommunityListings(rs store.Reports) func(ctx context.Context) ([]screening.Listing, error) {
	return func(ctx context.Context) ([]screening.Listing, error) {
		esc, err := rs.Escalations(ctx)
		if err != nil {
			return nil, err
		}
		out := make([]screening.Listing, len(esc))
		for i, e := range esc {
			out[i] = screening.Listing{Family: screening.Family(e.Family), Address: e.Canonical, Match: screening.Match{
				EntityID: e.ReportID, Source: screening.SourceCommunity, Category: e.Category, Severity: "medium"}}
		}
		return out, nil
	}
}

// stats is GET /v1/compliance/stats (no auth; spec 4.20).
func (s *Server) stats(c *gin.Context) error {
	ix := s.Screening.Current()
	var last any
	sources := gin.H{}
	if s.Ingest != nil {
		var at time.Time
		src := ""
		states := map[string]store.SourceVersion{}
		for name, st := range s.Ingest.States() {
			if st.IngestAt.After(at) {
				at, src = st.IngestAt, name
			}
			states[name] = store.SourceVersion{SHA256: st.Snapshot.SHA256, BlobName: st.Snapshot.BlobName,
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
	rs, err := s.Reports.CountReports(c.Request.Context())
	if err != nil {
		return err
	}
	screenings, err := s.Screenings.ScreeningCount(c.Request.Context())
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
