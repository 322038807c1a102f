package api

// routes registers every route of the service: the system endpoints here,
// each resource's in the file of its handlers (accountRoutes,
// billingRoutes, mediaRoutes, memoryRoutes, complianceRoutes,
// adminRoutes, consoleRoutes). The OpenAPI document (api/openapi/*.yaml) describes
// exactly these; a test keeps the two equal.
func (s *Server) routes() {
	e := s.engine
	e.GET("/healthz", h(s.healthz))
	e.GET("/readyz", h(s.readyz))
	e.GET("/metrics", s.adminAuth, s.metrics.handler)
	// The scripts and styles of the pages (the proof report), embedded.
	e.GET("/assets/:name", h(s.asset))
	s.consoleRoutes()

	v1 := e.Group("/v1")
	v1.GET("/openapi.json", h(s.openAPI))
	v1.GET("/skill", h(s.skill))

	// The agent group: an agent API key, counted against the agent's
	// request limits.
	agent := v1.Group("", s.agentAuth, s.limited())
	s.accountRoutes(v1, agent)
	s.billingRoutes(v1, agent)
	s.mediaRoutes(agent)
	s.memoryRoutes(agent)
	s.complianceRoutes(v1)
	s.watchRoutes(v1)
	s.webhookRoutes(v1)
	s.adminRoutes(v1)
}
