package api

import "github.com/cairn-dev/cairn/billing"

// routes registers every route of the service. The OpenAPI document
// (api/openapi/*.yaml) describes exactly these; a test keeps the two equal.
func (s *Server) routes() {
	e := s.engine
	e.GET("/healthz", h(s.healthz))
	e.GET("/readyz", h(s.readyz))
	e.GET("/metrics", s.adminAuth, s.metrics.handler)

	v1 := e.Group("/v1")
	v1.GET("/openapi.json", h(s.openAPI))
	v1.GET("/skill", h(s.skill))

	// No authentication.
	v1.POST("/auth/agent-register",
		s.rateLimit(policy{name: "registrations", l: s.registerLimit, key: clientNet, when: always},
			policy{name: "registrations-all", l: s.registerAllLimit, key: everyone, when: always}),
		h(s.register))
	v1.GET("/billing/pricing", h(s.pricing))

	// Agent API key.
	agent := v1.Group("", s.agentAuth, s.limited())
	agent.GET("/agents/self", h(s.self))
	agent.POST("/agents", s.paid(billing.OpAgentCreate), h(s.createAgent))
	agent.GET("/billing/agent/balance", h(s.agentBalance))
	agent.POST("/billing/agent/deposit", h(s.deposit))
	s.mediaRoutes(agent)
	s.memoryRoutes(agent)

	// Agent API key or developer JWT: account-level views.
	account := v1.Group("", s.agentOrDeveloperAuth, s.limited())
	account.GET("/billing/balance", h(s.balance))
	account.GET("/billing/transactions", h(s.transactions))

	// Rotation counts attempts per client IP before anything else, so that
	// guessing secrets is bounded whatever the key.
	v1.POST("/agents/self/rotate-key",
		s.rateLimit(policy{name: "rotations", l: s.rotateLimit, key: clientNet, when: always}),
		s.agentAuth, s.limited(), h(s.rotateKey))

	s.complianceRoutes(v1)

	// Administrator token.
	admin := v1.Group("/admin", s.adminAuth)
	admin.PUT("/pricing", h(s.setPricing))
	admin.POST("/agents/:agentId/revoke", h(s.revokeAgent))
	admin.POST("/credits", h(s.grantCredits))
	admin.POST("/ingest", h(s.runIngest))
	admin.GET("/reports", h(s.listReports))
	admin.POST("/reports/:reportId/confirm", h(s.confirmReport))
	admin.POST("/reports/:reportId/reject", h(s.rejectReport))
	admin.POST("/community/delist", h(s.delistAddress))
}
