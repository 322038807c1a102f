package api

import (
	"errors"
	"io"
	"mime"
	"net/http"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/media"
	"github.com/gin-gonic/gin"
)

// Upload body bounds: the file may be media.MaxFileSize bytes, and the rest
// of the body (form fields, part headers, boundaries) multipartOverhead;
// at most maxUploadParts parts.
const (
	multipartOverhead = 1 << 20
	maxUploadParts    = 32
)

func init() { uploadRoutes["/v1/media/upload"] = media.MaxFileSize + multipartOverhead }

// uploadMedia is POST /v1/media/upload (spec 4.12). It reads the multipart
// body as a stream: fields sent before the file are checked first, the
// file goes straight to the blob store, and fields sent after it are
// applied (or refuse the upload, removing the blob) before the record is
// created.
func (s *Server) uploadMedia(c *gin.Context) error {
	r := c.Request
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "multipart/form-data" {
		return cairn.Errorf(cairn.EUNSUPPORTEDMEDIA, "Content-Type must be multipart/form-data.")
	}
	r.Body = http.MaxBytesReader(c.Writer, r.Body, media.MaxFileSize+multipartOverhead)
	mr, err := r.MultipartReader()
	if err != nil {
		return uploadBodyError(err)
	}
	ctx := r.Context()
	fields := map[string]string{}
	get := func(k string) (string, bool) { v, ok := fields[k]; return v, ok }
	var staged *media.Staged
	defer func() {
		if staged != nil {
			staged.Discard(ctx) // nothing once committed
		}
	}()
	for n := 0; ; n++ {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		} else if err != nil {
			return uploadBodyError(err)
		}
		if n == maxUploadParts {
			return cairn.Errorf(cairn.EINVALID, "At most %d form parts are accepted.", maxUploadParts)
		}
		name := p.FormName()
		if name == "file" {
			if staged != nil {
				return cairn.Errorf(cairn.EINVALID, "Exactly one file part named \"file\" is required.").With("field", "file")
			}
			opts, err := media.ParseOptions(get)
			if err != nil {
				return err
			}
			f := media.File{Filename: p.FileName(), MimeType: p.Header.Get("Content-Type"), Body: clientBody{p}}
			if staged, err = s.Media.Stage(ctx, agentOf(c).ID, f, opts); err != nil {
				return err
			}
			continue
		}
		v, err := io.ReadAll(io.LimitReader(clientBody{p}, media.MaxFieldBytes+1))
		if err != nil {
			return err
		}
		if len(v) > media.MaxFieldBytes {
			return cairn.Errorf(cairn.EINVALID, "A form field is limited to %d bytes.", media.MaxFieldBytes).With("field", name)
		}
		if _, dup := fields[name]; !dup { // the first value counts, as with FormValue
			fields[name] = string(v)
		}
	}
	if staged == nil {
		return cairn.Errorf(cairn.EINVALID, "Exactly one file part named \"file\" is required.").With("field", "file")
	}
	opts, err := media.ParseOptions(get)
	if err != nil {
		return err
	}
	opts.RequestID = requestID(c)
	m, err := staged.Commit(ctx, opts)
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusCreated, toMediaJSON(m))
	return nil
}

// clientBody turns errors reading the request body into the client's
// errors: 413 past the body limit, 400 for a malformed body.
type clientBody struct{ r io.Reader }

func (b clientBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err != nil && err != io.EOF {
		err = uploadBodyError(err)
	}
	return n, err
}

func uploadBodyError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return cairn.Errorf(cairn.ETOOLARGE, "The request body exceeds %d bytes.", mbe.Limit).With("limit", media.MaxFileSize)
	}
	return cairn.Errorf(cairn.EINVALID, "Malformed multipart body.")
}
