package api

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/billing"
	"github.com/gin-gonic/gin"
)

// memoryRoutes registers the memory endpoints (spec 4.1-4.11) on the agent
// group. Fixed paths come before /memory/:id so that gin matches them.
func (s *Server) memoryRoutes(agent *gin.RouterGroup) {
	agent.POST("/memory", s.idempotent(), s.paid(billing.OpMemoryWrite), h(s.createMemory))
	agent.GET("/memory", s.paid(billing.OpMemoryRead), h(s.listMemories))
	agent.POST("/memory/search", s.paid(billing.OpSearch), h(s.searchMemories))
	agent.POST("/memory/upload", s.idempotent(), s.paid(billing.OpMemoryWrite), h(s.uploadMemory))
	agent.POST("/memory/bulk", s.idempotent(), s.billed(), h(s.bulkMemories))
	agent.POST("/memory/bulk-delete", s.billed(), h(s.bulkDeleteMemories))
	agent.GET("/memory/expiring", h(s.expiringMemories))
	agent.POST("/memory/ttl-alerts", h(s.ttlAlerts))
	agent.GET("/memory/audit", h(s.memoryAudit))
	agent.GET("/memory/:id", s.paid(billing.OpMemoryRead), h(s.getMemory))
	agent.PUT("/memory/:id", s.paid(billing.OpMemoryUpdate), h(s.putMemory))
	agent.DELETE("/memory/:id", s.paid(billing.OpMemoryDelete), h(s.deleteMemory))
	agent.GET("/memory/:id/history", h(s.memoryHistory))
	agent.GET("/memory/:id/download", s.paid(billing.OpMemoryRead), h(s.downloadMemory))
	agent.PATCH("/memory/:id/pin", h(s.pinMemory))
	agent.PATCH("/memory/:id/importance", h(s.memoryImportance))
}

// createMemory is POST /v1/memory (spec 4.1).
func (s *Server) createMemory(c *gin.Context) error {
	var req memoryRequest
	if err := bindJSON(c, &req, false); err != nil {
		return err
	}
	w := req.write(c)
	replayable(c, w)
	v, err := s.Memory.Create(c.Request.Context(), agentOf(c).ID, w)
	if err != nil {
		return err
	}
	writeCreated(c, v)
	return nil
}

// getMemory is GET /v1/memory/:id (spec 4.2): any version's id.
func (s *Server) getMemory(c *gin.Context) error {
	v, err := s.Memory.Get(c.Request.Context(), agentOf(c).ID, c.Param("id"), true, requestID(c))
	if err != nil {
		return err
	}
	etag(c, v.Memory.Latest)
	writeJSON(c, http.StatusOK, toMemoryJSON(v, true))
	return nil
}

// putMemory is PUT /v1/memory/:id (spec 4.4): version N+1, optionally
// guarded by If-Match with the latest version number.
func (s *Server) putMemory(c *gin.Context) error {
	ifMatch := 0
	if raw := c.GetHeader("If-Match"); raw != "" {
		n, err := strconv.Atoi(strings.Trim(strings.TrimPrefix(strings.TrimSpace(raw), "W/"), `"`))
		if err != nil || n < 1 {
			return cairn.Errorf(cairn.EINVALID, "If-Match must be the latest version number, e.g. \"3\".").With("field", "If-Match")
		}
		ifMatch = n
	}
	var req memoryRequest
	if err := bindJSON(c, &req, false); err != nil {
		return err
	}
	if req.Type != "" || req.Key != "" {
		return cairn.Errorf(cairn.EINVALID, "type and key cannot change; create a new memory instead.").With("field", "key")
	}
	v, err := s.Memory.NewVersion(c.Request.Context(), agentOf(c).ID, c.Param("id"), ifMatch, req.write(c))
	if err != nil {
		return err
	}
	etag(c, v.Memory.Latest)
	writeJSON(c, http.StatusOK, toMemoryJSON(v, false))
	return nil
}

// deleteMemory is DELETE /v1/memory/:id (spec 3.1, 4.11).
func (s *Server) deleteMemory(c *gin.Context) error {
	head, gone, err := s.Memory.Delete(c.Request.Context(), agentOf(c).ID, c.Param("id"), requestID(c))
	if err != nil {
		return err
	}
	out := gin.H{"deleted": true, "id": gone.ID, "version": gone.Version, "memoryDeleted": head == nil, "latestId": nil, "latestVersion": nil}
	if head != nil {
		out["latestId"], out["latestVersion"] = head.LatestID, head.Latest
	}
	writeJSON(c, http.StatusOK, out)
	return nil
}
