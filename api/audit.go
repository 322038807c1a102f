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
	pg, err := s.readIDPage(c, action)
	if err != nil {
		return err
	}
	entries, more, err := s.Memory.Log(c.Request.Context(), agentOf(c).ID, action, pg.After, pg.Limit)
	if err != nil {
		return err
	}
	out := make([]wire.AuditEntry, len(entries))
	for i, e := range entries {
		detail := e.Detail
		if detail == nil {
			detail = map[string]any{}
		}
		out[i] = wire.AuditEntry{ID: e.ID, Action: e.Action, Resource: e.Resource, Detail: rawJSON(detail),
			RequestID: e.RequestID, CreatedAt: wire.At(e.CreatedAt)}
	}
	last := ""
	if more {
		last = entries[len(entries)-1].ID
	}
	writeJSON(c, http.StatusOK, wire.AuditPage{Entries: out, Limit: pg.Limit, NextCursor: s.next(pg, last), HasMore: more})
	return nil
}
