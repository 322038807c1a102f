package api

import (
	"net/http"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/compliance"
	"github.com/cairn-dev/cairn/wire"
	"github.com/gin-gonic/gin"
)

// ReportsPerHour bounds the reports of one developer account (spec
// 4.19).
const ReportsPerHour = 20

const reportDisclaimer = "Community reports are provided as-is by users of the service and are not verified. " +
	"Sanctions data comes as-is from public sources. Neither is legal advice."

// report is POST /v1/compliance/report (free).
func (s *Server) report(c *gin.Context) error {
	var in wire.ReportRequest
	if err := bindJSON(c, &in, false); err != nil {
		return err
	}
	a := agentOf(c)
	// Counted in the store (Deps.RateLimits): shared by the instances of
	// one store and kept across restarts.
	d, err := s.reportLimit.Take(c.Request.Context(), "reports\x00"+a.DeveloperID, s.Clock.Now())
	if err != nil {
		return err
	}
	if !d.Allowed {
		c.Header("Retry-After", seconds(d.RetryAfter))
		return cairn.Errorf(cairn.ERATELIMIT, "At most %d reports per hour per account.", ReportsPerHour).
			With("limit", ReportsPerHour).With("policy", "reports")
	}
	r, err := s.Reports.Report(c.Request.Context(), compliance.Principal{DeveloperID: a.DeveloperID, AgentID: a.ID,
		RequestID: requestID(c)}, compliance.ReportInput(in))
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusCreated, wire.ReportResult{ReportID: r.ID, Status: r.Status, AutoEscalated: r.AutoEscalated,
		CountsTowardEscalation: r.Established, Disclaimer: reportDisclaimer})
	return nil
}
