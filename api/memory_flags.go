package api

import (
	"bytes"
	"io"
	"net/http"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/wire"
	"github.com/gin-gonic/gin"
)

// wire.PinRequest is the body of PATCH /v1/memory/:id/pin: absent, the pin
// toggles (spec 4.11); {"pinned": true|false} sets it, so that a retry
// does not undo it.
// pinMemory is PATCH /v1/memory/:id/pin (free): sets the pin to the
// body's pinned, or toggles it without a body.
func (s *Server) pinMemory(c *gin.Context) error {
	var req wire.PinRequest
	raw, err := io.ReadAll(c.Request.Body)
	if err != nil {
		return decodeError(err)
	}
	if len(bytes.TrimSpace(raw)) > 0 {
		c.Request.Body = io.NopCloser(bytes.NewReader(raw))
		if err := bindJSON(c, &req, false); err != nil {
			return err
		}
	}
	if len(bytes.TrimSpace(raw)) > 0 && req.Pinned == nil {
		return cairn.Errorf(cairn.EINVALID, `pinned is required in a body: {"pinned": true} pins, {"pinned": false} unpins; send no body to toggle.`).With("field", "pinned")
	}
	m, err := s.Memory.SetPin(c.Request.Context(), agentOf(c).ID, c.Param("id"), req.Pinned, requestID(c))
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, wire.PinResult{ID: c.Param("id"), MemoryID: m.ID, Key: m.Key, Pinned: m.Pinned,
		ExpiresAt: wire.OptAt(m.ExpiresAt), UpdatedAt: wire.At(m.UpdatedAt)})
	return nil
}

// memoryImportance is PATCH /v1/memory/:id/importance (free).
func (s *Server) memoryImportance(c *gin.Context) error {
	var req wire.ImportanceRequest
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
	writeJSON(c, http.StatusOK, wire.ImportanceResult{ID: c.Param("id"), MemoryID: m.ID, Key: m.Key, Importance: m.Importance,
		UpdatedAt: wire.At(m.UpdatedAt)})
	return nil
}
