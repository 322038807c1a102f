package api

import (
	"net/http"

	"github.com/cairn-dev/cairn"
	"github.com/gin-gonic/gin"
)

// pinMemory is PATCH /v1/memory/:id/pin (free): toggles the pin.
func (s *Server) pinMemory(c *gin.Context) error {
	m, err := s.Memory.TogglePin(c.Request.Context(), agentOf(c).ID, c.Param("id"), requestID(c))
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, gin.H{"id": c.Param("id"), "memoryId": m.ID, "key": m.Key, "pinned": m.Pinned,
		"expiresAt": optTime(m.ExpiresAt), "updatedAt": timestamp(m.UpdatedAt)})
	return nil
}

type importanceRequest struct {
	Importance *float64 `json:"importance"`
}

// memoryImportance is PATCH /v1/memory/:id/importance (free).
func (s *Server) memoryImportance(c *gin.Context) error {
	var req importanceRequest
	if err := bindJSON(c, &req, false); err != nil {
		return err
	}
	if req.Importance == nil {
		return cairn.Errorf(cairn.EINVALID, "importance is required.").With("field", "importance")
	}
	m, err := s.Memory.SetImportance(c.Request.Context(), agentOf(c).ID, c.Param("id"), *req.Importance, requestID(c))
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, gin.H{"id": c.Param("id"), "memoryId": m.ID, "key": m.Key, "importance": m.Importance,
		"updatedAt": timestamp(m.UpdatedAt)})
	return nil
}
