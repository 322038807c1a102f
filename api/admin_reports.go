package api

import (
	"context"
	"github.com/cairn-dev/cairn"
	"net/http"

	"github.com/cairn-dev/cairn/compliance"
	"github.com/cairn-dev/cairn/wire"
	"github.com/gin-gonic/gin"
)

// confirmReport is POST /v1/admin/reports/:reportId/confirm.
func (s *Server) confirmReport(c *gin.Context) error {
	return s.moderateReport(c, s.Reports.Confirm)
}

// rejectReport is POST /v1/admin/reports/:reportId/reject.
func (s *Server) rejectReport(c *gin.Context) error {
	return s.moderateReport(c, s.Reports.Reject)
}

func (s *Server) moderateReport(c *gin.Context, fn func(ctx context.Context, reportID, reason, requestID string) (*compliance.ModerationResult, error)) error {
	var req wire.ModerationRequest
	if err := bindJSON(c, &req, true); err != nil {
		return err
	}
	res, err := fn(c.Request.Context(), c.Param("reportId"), req.Reason, requestID(c))
	return respond(c, http.StatusOK, res, err, moderationJSON)
}

// delistAddress is POST /v1/admin/community/delist.
func (s *Server) delistAddress(c *gin.Context) error {
	var req wire.DelistRequest
	if err := bindJSON(c, &req, false); err != nil {
		return err
	}
	res, err := s.Reports.Delist(c.Request.Context(), req.Address, req.Chain, req.Reason, requestID(c))
	return respond(c, http.StatusOK, res, err, moderationJSON)
}

// moderationJSON is the answer of a moderation: what it changed.
func moderationJSON(res *compliance.ModerationResult) wire.Moderation {
	changed := make([]wire.ModeratedReport, len(res.Changed))
	for i, r := range res.Changed {
		changed[i] = wire.ModeratedReport{ReportID: r.ID, Status: r.Status}
	}
	return wire.Moderation{Action: res.Action, Family: res.Family, Address: res.Canonical, CommunityListed: res.Escalated,
		TreeChanged: res.TreeChanged, Reports: changed}
}

// adminPrincipal is the administrator in the cursors of its listings.
const adminPrincipal = "admin"

// listReports is GET /v1/admin/reports?status=&limit=&cursor=: the reports
// an administrator moderates, newest first.
func (s *Server) listReports(c *gin.Context) error {
	limit, err := pageLimit(c)
	if err != nil {
		return err
	}
	// The cursor is signed like every other listing's, bound to the
	// administrator's listing and its status filter: a report id given as
	// a cursor, or a cursor of another filter, is refused.
	filter := "status=" + c.Query("status")
	var before string
	if cur := c.Query("cursor"); cur != "" {
		if before, err = s.Cursors.DecodePage(cur, adminPrincipal, filter); err != nil {
			return err
		}
	}
	rs, err := s.Reports.List(c.Request.Context(), c.Query("status"), before, limit+1)
	if err != nil {
		return err
	}
	var next *string
	if len(rs) > limit {
		rs = rs[:limit]
		cur := s.Cursors.EncodePage(adminPrincipal, filter, rs[limit-1].ID)
		next = &cur
	}
	out := make([]wire.Report, len(rs))
	for i := range rs {
		out[i] = reportOf(&rs[i])
	}
	writeJSON(c, http.StatusOK, wire.ReportPage{Reports: out, NextCursor: next})
	return nil
}

// reportOf is a report as the administrator's listing shows it.
func reportOf(r *cairn.Report) wire.Report {
	out := wire.Report{ReportID: r.ID, DeveloperID: r.DeveloperID, AgentID: r.AgentID, Address: r.Address,
		Chain: r.Chain, Family: r.Family, Canonical: r.Canonical, Category: r.Category, Reason: r.Reason,
		Evidence: r.Evidence, Status: r.Status, Established: r.Established, AutoEscalated: r.AutoEscalated,
		CreatedAt: wire.At(r.CreatedAt)}
	if r.Evidence == nil {
		out.Evidence = []string{}
	}
	if m := r.Moderation; m != nil {
		out.Moderation = &wire.ReportModeration{Action: m.Action, Reason: m.Reason, At: wire.At(m.At)}
	}
	return out
}
