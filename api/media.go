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

type mediaCursor struct {
	Agent    string `json:"a"`
	Category string `json:"c,omitempty"`
	Before   string `json:"b"`
}

// listMedia is GET /v1/media (free): newest first, cursor pagination.
func (s *Server) listMedia(c *gin.Context) error {
	limit, err := pageLimit(c)
	if err != nil {
		return err
	}
	agent := agentOf(c)
	cat := c.Query("category")
	switch cat {
	case "", cairn.MediaPhoto, cairn.MediaVideo, cairn.MediaAudio, cairn.MediaDocument:
	default:
		return cairn.Errorf(cairn.EINVALID, "category must be photo, video, audio or document.").With("field", "category")
	}
	before := ""
	if cur := c.Query("cursor"); cur != "" {
		var mc mediaCursor
		if err := s.Cursors.Decode(cur, &mc); err != nil {
			return err
		}
		if mc.Agent != agent.ID || mc.Category != cat || !cairn.ValidID(mc.Before) {
			return cairn.Errorf(cairn.EINVALID, "Invalid cursor.")
		}
		before = mc.Before
	}
	items, more, err := s.Media.List(c.Request.Context(), agent.ID, cat, before, limit)
	if err != nil {
		return err
	}
	out := make([]mediaJSON, len(items))
	for i := range items {
		out[i] = toMediaJSON(&items[i])
	}
	var next any
	if more {
		next = s.Cursors.Encode(mediaCursor{Agent: agent.ID, Category: cat, Before: items[len(items)-1].ID})
	}
	writeJSON(c, http.StatusOK, gin.H{"media": out, "limit": limit, "nextCursor": next, "hasMore": more})
	return nil
}
