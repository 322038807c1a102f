package memory

import (
	"encoding/base64"
	"fmt"
	"math"
	"mime"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/cairn-dev/cairn"
)

// The validation of a write, in one place: a create (Create: checkName,
// then check) and a new version (NewVersion: check) validate every field
// of the request here, before any lock or store is touched, and
// writeVersion then writes what check returned. Only what depends on the
// stored state is checked later: a key in use, a changed version (If-Match),
// an expired memory, the content already stored becoming shared, a custom
// blob name another version holds, a vector space's dimension.

// checked is a write's content as check accepted it: the bytes a client
// reads back and their encoding ("base64" for binary content).
type checked struct {
	content  []byte
	encoding string
}

// check validates the request fields of w against m, the head it writes
// (its metadata applied to m), and returns the content to store. The
// order of the checks is the order of their answers: the metadata, the
// blob name and MIME type, the content and its size, the credential scan
// of shared content, the vector.
func (s *Service) check(w *Write, m *cairn.Memory, now time.Time) (checked, error) {
	if err := applyMeta(w, m, now); err != nil {
		return checked{}, err
	}
	if err := checkBlobParts(w.BlobFilename, w.BlobExtension); err != nil {
		return checked{}, err
	}
	if err := checkMimeType(w.MimeType); err != nil {
		return checked{}, err
	}
	content, enc, err := w.body()
	if err != nil {
		return checked{}, err
	}
	if len(content) > MaxFileSize {
		return checked{}, cairn.Errorf(cairn.ETOOLARGE, "Content exceeds %d bytes.", MaxFileSize).With("limit", MaxFileSize)
	}
	if err := s.screen(m, w, content); err != nil {
		return checked{}, err
	}
	if err := s.checkEmbedding(w.Embedding); err != nil {
		return checked{}, err
	}
	return checked{content: content, encoding: enc}, nil
}

// checkName checks the type (semantic when absent) and the key of a
// create.
func checkName(w *Write) error {
	if w.Type == "" {
		w.Type = "semantic"
	}
	if err := checkType(w.Type); err != nil {
		return err
	}
	return checkKey(w.Key)
}

func invalid(field, format string, args ...any) error {
	return cairn.Errorf(cairn.EINVALID, format, args...).With("field", field)
}

// checkType accepts 1-32 lower-case letters, digits, '-' and '_'.
func checkType(t string) error {
	if t == "" || len(t) > 32 || strings.IndexFunc(t, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_')
	}) >= 0 {
		return invalid("type", "type must be 1-32 characters of a-z, 0-9, '-' and '_'.")
	}
	return nil
}

// checkKey accepts a slash-separated path of up to 512 bytes whose segments
// (at most 255 bytes each, as file names are)
// are non-empty, printable Unicode (no backslash), and not "." or "..".
func checkKey(k string) error {
	bad := invalid("key", "key must be a slash-separated path of up to 512 printable characters with no empty, '.' or '..' segment.")
	if k == "" || len(k) > 512 {
		return bad
	}
	for _, seg := range strings.Split(k, "/") {
		if seg == "" || seg == "." || seg == ".." || len(seg) > 255 {
			return bad
		}
	}
	if !utf8.ValidString(k) {
		return bad
	}
	for _, r := range k {
		if !unicode.IsPrint(r) || r == '\\' {
			return bad
		}
	}
	return nil
}

// checkBlobParts accepts a custom blob file name of 1-128 characters of
// letters, digits, '.', '-' and '_' (not "." or ".."), and an extension of
// up to 16 such characters, usually with a leading dot.
func checkBlobParts(filename, ext string) error {
	ok := func(s string) bool {
		return strings.IndexFunc(s, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_')
		}) < 0
	}
	if len(filename) > 128 || !ok(filename) || filename == "." || filename == ".." {
		return invalid("blobFilename", "blobFilename must be up to 128 characters of letters, digits, '.', '-' and '_'.")
	}
	if len(ext) > 16 || !ok(ext) || ext == "." || ext == ".." {
		return invalid("blobExtension", "blobExtension must be up to 16 characters of letters, digits, '.', '-' and '_'.")
	}
	return nil
}

// maxMimeType bounds a MIME type as a header value.
const maxMimeType = 255

// checkMimeType accepts a MIME type that a download can send back as its
// Content-Type header: a media type with well-formed parameters.
func checkMimeType(mt *string) error {
	if mt == nil || *mt == "" {
		return nil
	}
	if _, _, err := mime.ParseMediaType(*mt); err != nil || len(*mt) > maxMimeType {
		return invalid("mimeType", "mimeType must be a MIME type such as text/plain of up to %d characters.", maxMimeType)
	}
	return nil
}

// body returns the content bytes and their encoding.
func (w *Write) body() ([]byte, string, error) {
	if w.Raw != nil {
		return w.Raw, "base64", nil
	}
	if w.Content == nil {
		return nil, "", invalid("content", "content is required.")
	}
	switch w.ContentEncoding {
	case "":
		return []byte(*w.Content), "", nil
	case "base64":
		b, err := base64.StdEncoding.DecodeString(*w.Content)
		if err != nil {
			return nil, "", invalid("content", "content is not valid base64.")
		}
		return b, "base64", nil
	}
	return nil, "", invalid("contentEncoding", "contentEncoding must be base64 or absent.")
}

// applyMeta validates and applies the mutable fields of w to m.
func applyMeta(w *Write, m *cairn.Memory, now time.Time) error {
	if w.Importance != nil {
		if i := *w.Importance; math.IsNaN(i) || i < 0 || i > 1 {
			return invalid("importance", "importance must be between 0 and 1.")
		}
		m.Importance = *w.Importance
	}
	if w.ExpiresIn != nil {
		d, err := cairn.ParseTTL(*w.ExpiresIn)
		if err != nil {
			return cairn.Errorf(cairn.EINVALID, "%s", cairn.ErrorMessage(err)).With("field", "expiresIn")
		}
		m.ExpiresAt = now.Add(d)
	}
	if md := w.Metadata; md != nil {
		if len(md.Tags) > MaxTags {
			return invalid("metadata.tags", "at most %d tags.", MaxTags)
		}
		for _, t := range md.Tags {
			if t == "" || len(t) > MaxTagLen {
				return invalid("metadata.tags", "tags must be 1-%d characters.", MaxTagLen)
			}
		}
		switch md.Visibility {
		case "":
			md.Visibility = m.Visibility
		case "private", "share":
		default:
			return invalid("metadata.visibility", "visibility must be private or share.")
		}
		if md.Tags != nil { // absent or null: the tags stay, as an absent visibility does
			m.Tags = append([]string{}, md.Tags...)
		}
		m.Visibility = md.Visibility
	}
	if m.Visibility == "" {
		m.Visibility = "private"
	}
	if m.Tags == nil {
		m.Tags = []string{}
	}
	return nil
}

// screen rejects shared, unencrypted content that holds credentials (422).
func (s *Service) screen(m *cairn.Memory, w *Write, content []byte) error {
	if s.Secrets == nil || m.Visibility != "share" || w.EncProvider != nil {
		return nil
	}
	rules, err := s.Secrets.Find(string(content))
	if err != nil {
		return err
	}
	if len(rules) > 0 {
		return cairn.Errorf(cairn.EUNPROCESSABLE, "Shared content contains credentials (%s: %s); store it private (metadata.visibility \"private\"), "+
			"encrypt it, or remove them. The request was refunded.", kinds(len(rules)), strings.Join(rules, ", ")).With("rules", rules).With("field", "content")
	}
	return nil
}

// kinds is "1 kind" or "n kinds".
func kinds(n int) string {
	if n == 1 {
		return "1 kind"
	}
	return fmt.Sprintf("%d kinds", n)
}
