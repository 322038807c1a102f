package api

import (
	"net/http"

	"github.com/cairn-dev/cairn/wire"
	"github.com/gin-gonic/gin"
)

// memoryHistory is GET /v1/memory/:id/history (spec 4.8), free.
func (s *Server) memoryHistory(c *gin.Context) error {
	hist, err := s.Memory.History(c.Request.Context(), agentOf(c).ID, c.Param("id"), requestID(c))
	if err != nil {
		return err
	}
	versions := make([]wire.HistoryVersion, len(hist.Versions))
	for i, v := range hist.Versions {
		versions[i] = wire.HistoryVersion{ID: v.ID, Version: v.Version, IsLatest: v.Version == hist.Memory.Latest,
			SizeBytes: v.SizeBytes, CreatedAt: wire.At(v.CreatedAt)}
	}
	writeJSON(c, http.StatusOK, wire.History{MemoryID: hist.Memory.ID, Key: hist.Memory.Key, Type: hist.Memory.Type,
		TotalVersions: len(versions), Versions: versions})
	return nil
}
