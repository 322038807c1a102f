package memory

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/media"
)

// MaxUploadFieldBytes bounds each form field of an upload but the file.
const MaxUploadFieldBytes = 64 << 10

// UploadFile is the file part of an upload (POST /v1/memory/upload).
type UploadFile struct {
	Body     []byte
	Filename string // as the client named it ("" when none)
	MimeType string // the part's Content-Type ("" when none)
}

// ParseUpload builds the Write of an upload from its form fields (get
// returns a field's value and whether it was sent) and its file part (nil
// when the form had none), as media.ParseOptions does for media. The
// upload's action is cairn.AuditUpload; the caller sets RequestID.
func ParseUpload(get func(name string) (string, bool), file *UploadFile) (*Write, error) {
	for _, req := range []string{"type", "key"} {
		if v, _ := get(req); v == "" {
			return nil, cairn.Errorf(cairn.EINVALID, "Form field %q is required.", req).With("field", req)
		}
	}
	if file == nil {
		return nil, cairn.Errorf(cairn.EINVALID, "Form field \"file\" is required.").With("field", "file")
	}
	field := func(k string) string { v, _ := get(k); return v }
	filename := file.Filename
	if filename != "" {
		// As for media: the download's Content-Disposition carries it.
		filename = media.SanitizeFilename(filename)
	}
	w := &Write{Type: field("type"), Key: field("key"), Raw: file.Body, Filename: filename, BlobFilename: field("blobFilename"),
		BlobExtension: field("blobExtension"), Action: cairn.AuditUpload}
	ttl := UploadTTL
	if v, ok := get("expiresIn"); ok {
		ttl = v
	}
	w.ExpiresIn = &ttl
	mt := field("mimeType")
	if mt == "" && file.MimeType != "" && file.MimeType != "application/octet-stream" {
		mt = file.MimeType
	}
	if mt == "" {
		mt = http.DetectContentType(file.Body)
	}
	w.MimeType = &mt
	if err := parseUploadJSON(get, w); err != nil {
		return nil, err
	}
	return w, nil
}

// parseUploadJSON reads the fields of an upload that hold numbers or JSON.
func parseUploadJSON(get func(name string) (string, bool), w *Write) error {
	if v, ok := get("importance"); ok {
		n, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return cairn.Errorf(cairn.EINVALID, "importance must be a number from 0 to 1.").With("field", "importance")
		}
		w.Importance = &n
	}
	if v, _ := get("metadata"); v != "" {
		w.Metadata = &Metadata{}
		if err := json.Unmarshal([]byte(v), w.Metadata); err != nil {
			return cairn.Errorf(cairn.EINVALID, "metadata must be a JSON object {tags, visibility}.").With("field", "metadata")
		}
	}
	if v, _ := get("encryptionProvider"); v != "" {
		w.EncProvider = &v
	}
	if v, _ := get("encryptionMeta"); v != "" {
		if err := json.Unmarshal([]byte(v), &w.EncMeta); err != nil || w.EncMeta == nil {
			return cairn.Errorf(cairn.EINVALID, "encryptionMeta must be a JSON object {iv, tag}.").With("field", "encryptionMeta")
		}
	}
	return nil
}
