package api

import (
	"errors"
	"net/http"
	"strings"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/billing"
	"github.com/cairn-dev/cairn/media"
	"github.com/gin-gonic/gin"
)

// multipartOverhead is what a media upload body may carry besides the file
// (form fields, part headers, boundaries).
const multipartOverhead = 1 << 20

func init() { uploadRoutes["/v1/media/upload"] = struct{}{} }

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

// uploadMedia is POST /v1/media/upload (spec 4.12).
func (s *Server) uploadMedia(c *gin.Context) error {
	r := c.Request
	if mt := r.Header.Get("Content-Type"); !strings.HasPrefix(strings.ToLower(mt), "multipart/form-data") {
		return cairn.Errorf(cairn.EUNSUPPORTEDMEDIA, "Content-Type must be multipart/form-data.")
	}
	r.Body = http.MaxBytesReader(c.Writer, r.Body, media.MaxFileSize+multipartOverhead)
	if err := r.ParseMultipartForm(1 << 20); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return cairn.Errorf(cairn.ETOOLARGE, "The file exceeds %d bytes.", media.MaxFileSize).With("limit", media.MaxFileSize)
		}
		return cairn.Errorf(cairn.EINVALID, "Malformed multipart body.")
	}
	defer r.MultipartForm.RemoveAll()
	files := r.MultipartForm.File["file"]
	if len(files) != 1 {
		return cairn.Errorf(cairn.EINVALID, "Exactly one file part named \"file\" is required.").With("field", "file")
	}
	fh := files[0]
	if fh.Size > media.MaxFileSize {
		return cairn.Errorf(cairn.ETOOLARGE, "The file exceeds %d bytes.", media.MaxFileSize).With("limit", media.MaxFileSize)
	}
	u := media.Upload{Filename: fh.Filename, MimeType: fh.Header.Get("Content-Type"), RequestID: requestID(c),
		ExpiresIn: r.FormValue("expiresIn")}
	if v, ok := formValue(r, "title"); ok {
		u.Title = &v
	}
	if v, ok := formValue(r, "description"); ok {
		u.Description = &v
	}
	switch v := r.FormValue("pinned"); v {
	case "true":
		u.Pinned = true
	case "", "false":
	default:
		return cairn.Errorf(cairn.EINVALID, "pinned must be \"true\" or \"false\".").With("field", "pinned")
	}
	if v, ok := formValue(r, "metadata"); ok {
		md, err := media.ParseMetadata(v)
		if err != nil {
			return err
		}
		u.Metadata = md
	}
	f, err := fh.Open()
	if err != nil {
		return err
	}
	defer f.Close()
	u.Body = f
	m, err := s.Media.Upload(c.Request.Context(), agentOf(c).ID, u)
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusCreated, toMediaJSON(m))
	return nil
}

func formValue(r *http.Request, k string) (string, bool) {
	vs, ok := r.MultipartForm.Value[k]
	if !ok || len(vs) == 0 {
		return "", false
	}
	return vs[0], true
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
