package api

import (
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"

	"github.com/cairn-dev/cairn"
	"github.com/gin-gonic/gin"
)

// Upload body bounds: the file may be the route's file limit, and the rest
// of the body (form fields, part headers, boundaries) multipartOverhead; at
// most maxUploadParts parts.
const (
	multipartOverhead = 1 << 20
	maxUploadParts    = 32
)

// uploadForm describes the multipart/form-data body of an upload route.
type uploadForm struct {
	// FileLimit bounds the file part: a larger upload is 413 with the
	// limit.
	FileLimit int64
	// FieldLimit bounds each other field: a longer one is 400 naming the
	// field.
	FieldLimit int
	// File receives the one part named "file" as it arrives, with the
	// fields sent before it (a field sent twice: the first value counts).
	// Its reads fail with the client's errors (clientBody).
	File func(p *multipart.Part, get func(name string) (string, bool)) error
}

// read reads the body of c as a stream. It returns the fields (the
// first value of each) once the whole body is read; the caller checks
// that File ran (errOneFile).
func (f uploadForm) read(c *gin.Context) (formFields, error) {
	mr, err := f.reader(c)
	if err != nil {
		return nil, err
	}
	fields := formFields{}
	hasFile := false
	for n := 0; ; n++ {
		p, err := mr.NextPart()
		if err == io.EOF {
			return fields, nil
		} else if err != nil {
			return nil, f.bodyError(err)
		}
		if n == maxUploadParts {
			return nil, cairn.Errorf(cairn.EINVALID, "At most %d form parts are accepted.", maxUploadParts)
		}
		if p.FormName() != "file" {
			if err := f.field(p, fields); err != nil {
				return nil, err
			}
			continue
		}
		if hasFile {
			return nil, errOneFile
		}
		hasFile = true
		if err := f.File(p, fields.get); err != nil {
			return nil, err
		}
	}
}

// reader checks that the body of c is multipart/form-data, bounds it by
// the file limit and multipartOverhead and returns its reader.
func (f uploadForm) reader(c *gin.Context) (*multipart.Reader, error) {
	r := c.Request
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "multipart/form-data" {
		return nil, cairn.Errorf(cairn.EUNSUPPORTEDMEDIA, "Content-Type must be multipart/form-data.")
	}
	r.Body = http.MaxBytesReader(c.Writer, r.Body, f.FileLimit+multipartOverhead)
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, f.bodyError(err)
	}
	return mr, nil
}

// field reads a part other than the file into fields: at most FieldLimit
// bytes, and the first value counts when a field is sent twice, as with
// FormValue.
func (f uploadForm) field(p *multipart.Part, fields formFields) error {
	name := p.FormName()
	v, err := io.ReadAll(io.LimitReader(clientBody{p, f.FileLimit}, int64(f.FieldLimit)+1))
	if err != nil {
		return err
	}
	if len(v) > f.FieldLimit {
		return cairn.Errorf(cairn.EINVALID, "A form field is limited to %d bytes.", f.FieldLimit).With("field", name)
	}
	if _, dup := fields[name]; !dup {
		fields[name] = string(v)
	}
	return nil
}

// formFields are the fields of an upload form but the file.
type formFields map[string]string

// get returns a field's value and whether it was sent.
func (f formFields) get(name string) (string, bool) { v, ok := f[name]; return v, ok }

// errOneFile is the error of an upload without its file part, or with two.
var errOneFile = cairn.Errorf(cairn.EINVALID, "Exactly one file part named \"file\" is required.").With("field", "file")

// bodyError maps an error reading the body to the client's error: 413
// past the body limit, the error itself when it is already the service's,
// 400 for a malformed body.
func (f uploadForm) bodyError(err error) error { return uploadBodyError(err, f.FileLimit) }

func uploadBodyError(err error, fileLimit int64) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return uploadTooLarge(fileLimit)
	}
	var ce *cairn.Error
	if errors.As(err, &ce) {
		return ce
	}
	return cairn.Errorf(cairn.EINVALID, "Malformed multipart body.")
}

// uploadTooLarge is the one error of an upload over its limit.
func uploadTooLarge(fileLimit int64) error {
	return cairn.Errorf(cairn.ETOOLARGE, "The file exceeds %d bytes.", fileLimit).With("limit", fileLimit)
}

// clientBody turns errors reading the request body into the client's
// errors: 413 past the body limit, 400 for a malformed body.
type clientBody struct {
	r         io.Reader
	fileLimit int64
}

func (b clientBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err != nil && err != io.EOF {
		err = uploadBodyError(err, b.fileLimit)
	}
	return n, err
}
