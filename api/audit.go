package api

import (
	"net/http"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/wire"
	"github.com/gin-gonic/gin"
)

// memoryAudit is GET /v1/memory/audit (spec 4.10), free: the agent's
// operation log, newest first, with cursor pagination.
func (s *Server) memoryAudit(c *gin.Context) error {
	action := c.Query("action")
	if action != "" && !slices.Contains(cairn.AuditActions, action) {
		return cairn.Errorf(cairn.EINVALID, "Unknown action %q; action is one of %s, or absent for every action.", action,
			strings.Join(cairn.AuditActions, ", ")).With("field", "action").With("allowed", cairn.AuditActions)
	}
	out, pg, err := listByID(s, c, action, s.Memory.Log, func(e *cairn.AuditEntry) (string, wire.AuditEntry) {
		detail := e.Detail
		if detail == nil {
			detail = map[string]any{}
		}
		return e.ID, wire.AuditEntry{ID: e.ID, Action: e.Action, Resource: e.Resource, Detail: rawJSON(detail),
			RequestID: e.RequestID, CreatedAt: wire.At(e.CreatedAt)}
	})
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, wire.AuditPage{Entries: out, Paging: pg})
	return nil
}
