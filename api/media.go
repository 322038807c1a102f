package api

import (
	"net/http"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/billing"
	"github.com/cairn-dev/cairn/wire"
	"github.com/gin-gonic/gin"
)

// mediaRoutes registers the media endpoints on the agent group.
func (s *Server) mediaRoutes(agent *gin.RouterGroup) {
	agent.POST("/media/upload", s.paid(billing.OpMediaUpload), h(s.uploadMedia))
	agent.GET("/media", h(s.listMedia))
	agent.GET("/media/:id", h(s.getMedia))
	agent.GET("/media/:id/stream", s.paid(billing.OpMediaStream), h(s.streamMedia))
	agent.HEAD("/media/:id/stream", h(s.streamMedia))
	agent.DELETE("/media/:id", s.paid(billing.OpMediaDelete), h(s.deleteMedia))
	agent.POST("/media/:id/renew", strictBody[wire.RenewMediaRequest](), h(s.renewMedia))
}

// toMediaJSON is a media record as the API shows it.
func toMediaJSON(m *cairn.Media) wire.Media {
	return wire.Media{
		ID: m.ID, Category: m.Category, Filename: m.Filename, BlobName: m.BlobName, MimeType: m.MimeType,
		SizeBytes: m.SizeBytes, Title: m.Title, Description: m.Description, Metadata: rawJSON(m.Metadata), Pinned: m.Pinned,
		ExpiresAt: wire.At(m.ExpiresAt), CreatedAt: wire.At(m.CreatedAt),
	}
}

// getMedia is GET /v1/media/:id (free).
func (s *Server) getMedia(c *gin.Context) error {
	m, err := s.Media.Get(c.Request.Context(), agentOf(c).ID, c.Param("id"))
	return respond(c, http.StatusOK, m, err, toMediaJSON)
}

// deleteMedia is DELETE /v1/media/:id (spec 4.14).
func (s *Server) deleteMedia(c *gin.Context) error {
	m, err := s.Media.Delete(c.Request.Context(), agentOf(c).ID, c.Param("id"), requestID(c))
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, wire.MediaDeletion{Deleted: true, ID: m.ID})
	return nil
}

// renewMedia is POST /v1/media/:id/renew {expiresIn} (free): a new time
// to live from now, as TTL renewal gives memories.
func (s *Server) renewMedia(c *gin.Context) error {
	var req wire.RenewMediaRequest
	if err := bindJSON(c, &req, false); err != nil {
		return err
	}
	if req.ExpiresIn == nil {
		return cairn.Errorf(cairn.EINVALID, `expiresIn is required, e.g. {"expiresIn": "90d"}.`).With("field", "expiresIn")
	}
	m, err := s.Media.Renew(c.Request.Context(), agentOf(c).ID, c.Param("id"), *req.ExpiresIn, requestID(c))
	return respond(c, http.StatusOK, m, err, toMediaJSON)
}

// listMedia is GET /v1/media (free): newest first, cursor pagination.
func (s *Server) listMedia(c *gin.Context) error {
	cat := c.Query("category")
	switch cat {
	case "", cairn.MediaPhoto, cairn.MediaVideo, cairn.MediaAudio, cairn.MediaDocument:
	default:
		return cairn.Errorf(cairn.EINVALID, "category must be photo, video, audio or document.").With("field", "category")
	}
	out, pg, err := listByID(s, c, cat, s.Media.List, func(m *cairn.Media) (string, wire.Media) { return m.ID, toMediaJSON(m) })
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, wire.MediaPage{HasMore: pg.HasMore, Limit: pg.Limit, Media: out, NextCursor: pg.NextCursor})
	return nil
}
