package api

import (
	"bytes"
	"io"
	"mime/multipart"
	"time"

	"github.com/cairn-dev/cairn/memory"
	"github.com/gin-gonic/gin"
)

func init() { uploadRoutes["/v1/memory/upload"] = memory.MaxFileSize + multipartOverhead }

// uploadMemory is POST /v1/memory/upload (spec 4.6): a file memory whose
// content is returned base64 on GET and raw on download; not full-text
// indexed.
func (s *Server) uploadMemory(c *gin.Context) error {
	var file *memory.UploadFile
	form := uploadForm{FileLimit: memory.MaxFileSize, FieldLimit: memory.MaxUploadFieldBytes,
		File: func(p *multipart.Part, _ func(string) (string, bool)) error {
			b, err := io.ReadAll(io.LimitReader(clientBody{p, memory.MaxFileSize}, memory.MaxFileSize+1))
			if err != nil {
				return err
			}
			if len(b) > memory.MaxFileSize {
				return uploadTooLarge(memory.MaxFileSize)
			}
			file = &memory.UploadFile{Body: b, Filename: p.FileName(), MimeType: p.Header.Get("Content-Type")}
			return nil
		}}
	fields, err := form.read(c)
	if err != nil {
		return err
	}
	w, err := memory.ParseUpload(fields.get, file)
	if err != nil {
		return err
	}
	w.RequestID = requestID(c)
	return s.create(c, w)
}

// downloadMemory is GET /v1/memory/:id/download (spec 4.7): the original
// bytes, with the file name as an attachment (Content-Disposition as media
// streams write it), Range served as for media.
func (s *Server) downloadMemory(c *gin.Context) error {
	v, err := s.Memory.Get(c.Request.Context(), agentOf(c).ID, c.Param("id"), true, requestID(c))
	if err != nil {
		return err
	}
	ct := "application/octet-stream"
	if v.Version.MimeType != nil && *v.Version.MimeType != "" {
		ct = *v.Version.MimeType
	}
	name := memory.DownloadName(&v.Memory, &v.Version)
	h := c.Writer.Header()
	h.Set("Content-Type", ct)
	h.Set("Content-Disposition", contentDisposition("attachment", name))
	h.Set("X-Content-Type-Options", "nosniff")
	return serveContent(c, int64(len(v.Content)), time.Time{}, bytes.NewReader(v.Content))
}
