package api

import (
	"mime/multipart"
	"net/http"

	"github.com/cairn-dev/cairn/media"
	"github.com/gin-gonic/gin"
)

func init() { uploadRoutes["/v1/media/upload"] = media.MaxFileSize + multipartOverhead }

// uploadMedia is POST /v1/media/upload (spec 4.12). It reads the multipart
// body as a stream: fields sent before the file are checked first, the
// file goes straight to the blob store, and fields sent after it are
// applied (or refuse the upload, removing the blob) before the record is
// created.
func (s *Server) uploadMedia(c *gin.Context) error {
	ctx := c.Request.Context()
	var staged *media.Staged
	defer func() {
		if staged != nil {
			staged.Discard(ctx) // nothing once committed
		}
	}()
	form := uploadForm{FileLimit: media.MaxFileSize, FieldLimit: media.MaxFieldBytes,
		File: func(p *multipart.Part, get func(string) (string, bool)) error {
			opts, err := media.ParseOptions(get)
			if err != nil {
				return err
			}
			f := media.File{Filename: p.FileName(), MimeType: p.Header.Get("Content-Type"), Body: clientBody{p, media.MaxFileSize}}
			staged, err = s.Media.Stage(ctx, agentOf(c).ID, f, opts)
			return err
		}}
	fields, err := form.read(c)
	if err != nil {
		return err
	}
	if staged == nil {
		return errOneFile
	}
	opts, err := media.ParseOptions(fields.get)
	if err != nil {
		return err
	}
	opts.RequestID = requestID(c)
	m, err := staged.Commit(ctx, opts)
	return respond(c, http.StatusCreated, m, err, toMediaJSON)
}
