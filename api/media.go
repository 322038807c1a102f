package api

import (
	"net/http"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/billing"
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
	agent.POST("/media/:id/renew", strictBody[renewMediaRequest](), h(s.renewMedia))
}

type mediaJSON struct {
	ID          string         `json:"id"`
	Category    string         `json:"category"`
	Filename    string         `json:"filename"`
	BlobName    string         `json:"blobName"`
	MimeType    string         `json:"mimeType"`
	SizeBytes   int64          `json:"sizeBytes"`
	Title       *string        `json:"title"`
	Description *string        `json:"description"`
	Metadata    map[string]any `json:"metadata"`
	Pinned      bool           `json:"pinned"`
	ExpiresAt   string         `json:"expiresAt"`
	CreatedAt   string         `json:"createdAt"`
}

func toMediaJSON(m *cairn.Media) mediaJSON {
	return mediaJSON{
		ID: m.ID, Category: m.Category, Filename: m.Filename, BlobName: m.BlobName, MimeType: m.MimeType,
		SizeBytes: m.SizeBytes, Title: m.Title, Description: m.Description, Metadata: m.Metadata, Pinned: m.Pinned,
		ExpiresAt: timestamp(m.ExpiresAt), CreatedAt: timestamp(m.CreatedAt),
	}
}

// getMedia is GET /v1/media/:id (free).
func (s *Server) getMedia(c *gin.Context) error {
	m, err := s.Media.Get(c.Request.Context(), agentOf(c).ID, c.Param("id"))
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, toMediaJSON(m))
	return nil
}

// deleteMedia is DELETE /v1/media/:id (spec 4.14).
func (s *Server) deleteMedia(c *gin.Context) error {
	m, err := s.Media.Delete(c.Request.Context(), agentOf(c).ID, c.Param("id"), requestID(c))
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, gin.H{"deleted": true, "id": m.ID})
	return nil
}

type renewMediaRequest struct {
	ExpiresIn *string `json:"expiresIn"`
}

// renewMedia is POST /v1/media/:id/renew {expiresIn} (free): a new time
// to live from now, as TTL renewal gives memories.
func (s *Server) renewMedia(c *gin.Context) error {
	var req renewMediaRequest
	if err := bindJSON(c, &req, false); err != nil {
		return err
	}
	if req.ExpiresIn == nil {
		return cairn.Errorf(cairn.EINVALID, `expiresIn is required, e.g. {"expiresIn": "90d"}.`).With("field", "expiresIn")
	}
	m, err := s.Media.Renew(c.Request.Context(), agentOf(c).ID, c.Param("id"), *req.ExpiresIn, requestID(c))
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, toMediaJSON(m))
	return nil
}

// listMedia is GET /v1/media (free): newest first, cursor pagination.
func (s *Server) listMedia(c *gin.Context) error {
	cat := c.Query("category")
	switch cat {
	case "", cairn.MediaPhoto, cairn.MediaVideo, cairn.MediaAudio, cairn.MediaDocument:
	default:
		return cairn.Errorf(cairn.EINVALID, "category must be photo, video, audio or document.").With("field", "category")
	}
	pg, err := s.readIDPage(c, cat)
	if err != nil {
		return err
	}
	items, more, err := s.Media.List(c.Request.Context(), agentOf(c).ID, cat, pg.After, pg.Limit)
	if err != nil {
		return err
	}
	out := make([]mediaJSON, len(items))
	for i := range items {
		out[i] = toMediaJSON(&items[i])
	}
	last := ""
	if more {
		last = items[len(items)-1].ID
	}
	writeJSON(c, http.StatusOK, gin.H{"media": out, "limit": pg.Limit, "nextCursor": s.next(pg, last), "hasMore": more})
	return nil
}
