package api

import (
	"context"
	"net/http"
	"strings"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/wire"
	"github.com/gin-gonic/gin"
)

// adminRoutes registers the administrator endpoints (administrator
// token): pricing, agent revocation, credit grants, ingestion on demand
// and the moderation of community reports.
func (s *Server) adminRoutes(v1 *gin.RouterGroup) {
	admin := v1.Group("/admin", s.adminAuth)
	admin.PUT("/pricing", h(s.setPricing))
	admin.GET("/agents/:agentId", h(s.adminAgent))
	admin.POST("/agents/:agentId/revoke", h(s.revokeAgent))
	admin.POST("/credits", h(s.grantCredits))
	admin.POST("/ingest", h(s.runIngest))
	admin.GET("/reports", h(s.listReports))
	admin.POST("/reports/:reportId/confirm", h(s.confirmReport))
	admin.POST("/reports/:reportId/reject", h(s.rejectReport))
	admin.POST("/community/delist", h(s.delistAddress))
}

// setPricing is PUT /v1/admin/pricing: change live operation costs.
func (s *Server) setPricing(c *gin.Context) error {
	var req wire.PricingRequest
	if err := bindJSON(c, &req, false); err != nil {
		return err
	}
	if _, err := s.Pricing.Set(c.Request.Context(), req.OperationCosts); err != nil {
		return err
	}
	s.Logger.InfoContext(c.Request.Context(), "pricing changed", "changes", req.OperationCosts)
	writeJSON(c, http.StatusOK, s.pricingBody())
	return nil
}

// revokeAgent is POST /v1/admin/agents/:agentId/revoke.
func (s *Server) revokeAgent(c *gin.Context) error {
	a, err := s.Accounts.Revoke(c.Request.Context(), c.Param("agentId"), requestID(c))
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, wire.Revocation{AgentID: a.ID, Revoked: true, RevokedAt: wire.At(a.RevokedAt)})
	return nil
}

// adminAgent is GET /v1/admin/agents/:agentId: an agent, revoked or not,
// and the credit balance of its developer account.
func (s *Server) adminAgent(c *gin.Context) error {
	a, err := s.Accounts.Agent(c.Request.Context(), c.Param("agentId"))
	if err != nil {
		return err
	}
	bal, err := s.Ledger.Balance(c.Request.Context(), a.DeveloperID)
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, wire.AdminAgent{AgentID: a.ID, CreatedAt: wire.At(a.CreatedAt), CreditBalance: bal,
		DepositAddress: a.DepositAddress, DeveloperID: a.DeveloperID, Name: a.Name, Revoked: a.Revoked, RevokedAt: wire.OptAt(a.RevokedAt)})
	return nil
}

// grantCredits is POST /v1/admin/credits: add (or with a negative amount,
// remove) credits on a developer account.
func (s *Server) grantCredits(c *gin.Context) error {
	var req wire.GrantRequest
	if err := bindJSON(c, &req, false); err != nil {
		return err
	}
	req.Reason = strings.TrimSpace(req.Reason)
	switch {
	case !cairn.ValidID(req.DeveloperID):
		return cairn.Errorf(cairn.EINVALID, "developerId must be a developer id.").With("field", "developerId")
	case req.Amount == nil:
		return cairn.Errorf(cairn.EINVALID, "amount is required.").With("field", "amount")
	case req.Reason == "" || len(req.Reason) > 500:
		return cairn.Errorf(cairn.EINVALID, "reason is required (at most 500 bytes).").With("field", "reason")
	}
	e, err := s.Ledger.Grant(c.Request.Context(), req.DeveloperID, *req.Amount, req.Reason, requestID(c))
	if cairn.IsCode(err, cairn.EPAYMENT) {
		return cairn.Errorf(cairn.ECONFLICT, "The grant would make the balance negative.")
	} else if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, wire.Grant{DeveloperID: e.DeveloperID, CreditBalance: e.BalanceAfter, Transaction: toTransaction(e)})
	return nil
}

// runIngest is POST /v1/admin/ingest: ingest every source now.
func (s *Server) runIngest(c *gin.Context) error {
	if s.Ingest == nil {
		return cairn.Errorf(cairn.EUNAVAILABLE, "Ingestion is not available.")
	}
	// An ingestion outlives its request: an admin who disconnects must not
	// leave every source recorded as failed ("context canceled").
	res, err := s.Ingest.Run(context.WithoutCancel(c.Request.Context()))
	if err != nil {
		return err
	}
	failures := map[string]string{}
	for k, v := range res.Failures {
		failures[k] = v
	}
	writeJSON(c, http.StatusOK, wire.Ingestion{ListVersion: int64(res.Version), Root: res.Root, LeafCount: res.Leaves,
		Added: res.Added, Removed: res.Removed, Failures: failures})
	return nil
}
