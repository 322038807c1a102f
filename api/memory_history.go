package api

import (
	"net/http"

	"github.com/gin-gonic/gin"
)

// memoryHistory is GET /v1/memory/:id/history (spec 4.8), free.
func (s *Server) memoryHistory(c *gin.Context) error {
	hist, err := s.Memory.History(c.Request.Context(), agentOf(c).ID, c.Param("id"), requestID(c))
	if err != nil {
		return err
	}
	versions := make([]gin.H, len(hist.Versions))
	for i, v := range hist.Versions {
		versions[i] = gin.H{"id": v.ID, "version": v.Version, "isLatest": v.Version == hist.Memory.Latest,
			"sizeBytes": v.SizeBytes, "createdAt": timestamp(v.CreatedAt)}
	}
	writeJSON(c, http.StatusOK, gin.H{"memoryId": hist.Memory.ID, "key": hist.Memory.Key, "type": hist.Memory.Type,
		"totalVersions": len(versions), "versions": versions})
	return nil
}
