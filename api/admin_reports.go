package api

import (
	"context"
	"net/http"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/compliance"
	"github.com/gin-gonic/gin"
)

type moderationRequest struct {
	Reason string `json:"reason"`
}

type delistRequest struct {
	Address string `json:"address"`
	Chain   string `json:"chain"`
	Reason  string `json:"reason"`
}

// confirmReport is POST /v1/admin/reports/:reportId/confirm.
func (s *Server) confirmReport(c *gin.Context) error {
	return s.moderateReport(c, s.Reports.Confirm)
}

// rejectReport is POST /v1/admin/reports/:reportId/reject.
func (s *Server) rejectReport(c *gin.Context) error {
	return s.moderateReport(c, s.Reports.Reject)
}

func (s *Server) moderateReport(c *gin.Context, fn func(ctx context.Context, reportID, reason, requestID string) (*compliance.ModerationResult, error)) error {
	var req moderationRequest
	if err := bindJSON(c, &req, true); err != nil {
		return err
	}
	res, err := fn(c.Request.Context(), c.Param("reportId"), req.Reason, requestID(c))
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, moderationJSON(res))
	return nil
}

// delistAddress is POST /v1/admin/community/delist.
func (s *Server) delistAddress(c *gin.Context) error {
	var req delistRequest
	if err := bindJSON(c, &req, false); err != nil {
		return err
	}
	res, err := s.Reports.Delist(c.Request.Context(), req.Address, req.Chain, req.Reason, requestID(c))
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, moderationJSON(res))
	return nil
}

func moderationJSON(res *compliance.ModerationResult) gin.H {
	changed := make([]gin.H, len(res.Changed))
	for i, r := range res.Changed {
		changed[i] = gin.H{"reportId": r.ID, "status": r.Status}
	}
	return gin.H{"action": res.Action, "family": res.Family, "address": res.Canonical, "communityListed": res.Escalated,
		"treeChanged": res.TreeChanged, "reports": changed}
}

// listReports is GET /v1/admin/reports?status=&limit=&cursor=: the reports
// an administrator moderates, newest first.
func (s *Server) listReports(c *gin.Context) error {
	limit, err := pageLimit(c)
	if err != nil {
		return err
	}
	before := c.Query("cursor")
	if before != "" && !cairn.ValidID(before) {
		return cairn.Errorf(cairn.EINVALID, "cursor is not a report id.").With("field", "cursor")
	}
	rs, err := s.Reports.List(c.Request.Context(), c.Query("status"), before, limit+1)
	if err != nil {
		return err
	}
	var next any
	if len(rs) > limit {
		rs, next = rs[:limit], rs[limit-1].ID
	}
	out := make([]gin.H, len(rs))
	for i, r := range rs {
		item := gin.H{"reportId": r.ID, "developerId": r.DeveloperID, "agentId": r.AgentID, "address": r.Address,
			"chain": r.Chain, "family": r.Family, "canonical": r.Canonical, "category": r.Category, "reason": r.Reason,
			"evidence": r.Evidence, "status": r.Status, "established": r.Established, "autoEscalated": r.AutoEscalated,
			"createdAt": timestamp(r.CreatedAt)}
		if r.Evidence == nil {
			item["evidence"] = []string{}
		}
		if m := r.Moderation; m != nil {
			item["moderation"] = gin.H{"action": m.Action, "reason": m.Reason, "at": timestamp(m.At)}
		}
		out[i] = item
	}
	writeJSON(c, http.StatusOK, gin.H{"reports": out, "nextCursor": next})
	return nil
}
