package api

import (
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/media"
	"github.com/cairn-dev/cairn/memory"
	"github.com/gin-gonic/gin"
)

// Memory upload bounds: the file may be memory.MaxFileSize bytes, each
// other field memFieldMax, the whole body the file plus memFormOverhead.
const (
	memFormOverhead = 1 << 20
	memFieldMax     = 64 << 10
	memMaxParts     = 32
)

func init() { uploadRoutes["/v1/memory/upload"] = memory.MaxFileSize + memFormOverhead }

func memUploadError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return cairn.Errorf(cairn.ETOOLARGE, "The upload exceeds %d bytes.", memory.MaxFileSize).With("limit", memory.MaxFileSize)
	}
	var ce *cairn.Error
	if errors.As(err, &ce) {
		return ce
	}
	return cairn.Errorf(cairn.EINVALID, "Malformed multipart body.")
}

// readMemoryForm reads the multipart form of an upload: the file's bytes,
// its file name and part Content-Type, and the other fields.
func readMemoryForm(c *gin.Context) (file []byte, filename, partType string, fields map[string]string, err error) {
	r := c.Request
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "multipart/form-data" {
		return nil, "", "", nil, cairn.Errorf(cairn.EUNSUPPORTEDMEDIA, "Content-Type must be multipart/form-data.")
	}
	r.Body = http.MaxBytesReader(c.Writer, r.Body, memory.MaxFileSize+memFormOverhead)
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, "", "", nil, memUploadError(err)
	}
	fields = map[string]string{}
	for n := 0; ; n++ {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		} else if err != nil {
			return nil, "", "", nil, memUploadError(err)
		}
		if n == memMaxParts {
			return nil, "", "", nil, cairn.Errorf(cairn.EINVALID, "At most %d form parts are accepted.", memMaxParts)
		}
		limit := int64(memFieldMax)
		if p.FormName() == "file" {
			limit = memory.MaxFileSize
		}
		b, err := io.ReadAll(io.LimitReader(p, limit+1))
		if err != nil {
			return nil, "", "", nil, memUploadError(err)
		}
		if int64(len(b)) > limit {
			if p.FormName() == "file" {
				return nil, "", "", nil, cairn.Errorf(cairn.ETOOLARGE, "The file exceeds %d bytes.", memory.MaxFileSize).With("limit", memory.MaxFileSize)
			}
			return nil, "", "", nil, cairn.Errorf(cairn.EINVALID, "Field %q is too long.", p.FormName()).With("field", p.FormName())
		}
		if p.FormName() == "file" {
			file, filename, partType = b, p.FileName(), p.Header.Get("Content-Type")
			continue
		}
		fields[p.FormName()] = string(b)
	}
	return file, filename, partType, fields, nil
}

// uploadMemory is POST /v1/memory/upload (spec 4.6): a file memory whose
// content is returned base64 on GET and raw on download; not full-text
// indexed.
func (s *Server) uploadMemory(c *gin.Context) error {
	file, filename, partType, f, err := readMemoryForm(c)
	if err != nil {
		return err
	}
	for _, req := range []string{"type", "key"} {
		if f[req] == "" {
			return cairn.Errorf(cairn.EINVALID, "Form field %q is required.", req).With("field", req)
		}
	}
	if file == nil {
		return cairn.Errorf(cairn.EINVALID, "Form field \"file\" is required.").With("field", "file")
	}
	if filename != "" {
		// As for media: the download's Content-Disposition carries it.
		filename = media.SanitizeFilename(filename)
	}
	w := &memory.Write{Type: f["type"], Key: f["key"], Raw: file, Filename: filename, BlobFilename: f["blobFilename"],
		BlobExtension: f["blobExtension"], Action: cairn.AuditUpload, RequestID: requestID(c)}
	ttl := memory.UploadTTL
	if v, ok := f["expiresIn"]; ok {
		ttl = v
	}
	w.ExpiresIn = &ttl
	mt := f["mimeType"]
	if mt == "" && partType != "" && partType != "application/octet-stream" {
		mt = partType
	}
	if mt == "" {
		mt = http.DetectContentType(file)
	}
	w.MimeType = &mt
	if v, ok := f["importance"]; ok {
		n, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return cairn.Errorf(cairn.EINVALID, "importance must be a number from 0 to 1.").With("field", "importance")
		}
		w.Importance = &n
	}
	if v := f["metadata"]; v != "" {
		w.Metadata = &memory.Metadata{}
		if err := json.Unmarshal([]byte(v), w.Metadata); err != nil {
			return cairn.Errorf(cairn.EINVALID, "metadata must be a JSON object {tags, visibility}.").With("field", "metadata")
		}
	}
	if v := f["encryptionProvider"]; v != "" {
		w.EncProvider = &v
	}
	if v := f["encryptionMeta"]; v != "" {
		if err := json.Unmarshal([]byte(v), &w.EncMeta); err != nil || w.EncMeta == nil {
			return cairn.Errorf(cairn.EINVALID, "encryptionMeta must be a JSON object {iv, tag}.").With("field", "encryptionMeta")
		}
	}
	replayable(c, w)
	v, err := s.Memory.Create(c.Request.Context(), agentOf(c).ID, w)
	if err != nil {
		return err
	}
	writeCreated(c, v)
	return nil
}

// downloadMemory is GET /v1/memory/:id/download (spec 4.7): the original
// bytes, with the file name as an attachment.
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
	c.Header("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	c.Header("Content-Length", strconv.Itoa(len(v.Content)))
	c.Data(http.StatusOK, ct, v.Content)
	return nil
}
