package memory

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"io"
	"mime"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cairn-dev/cairn"
)

// CompressThreshold is the content size from which content is stored
// gzip-compressed, when that makes the blob smaller.
const CompressThreshold = 1024

// maxDecompressed bounds what a stored compressed blob may expand to.
const maxDecompressed = 64 << 20

// compress returns the bytes to store for content and whether they are
// compressed.
func compress(content []byte) ([]byte, bool) {
	if len(content) < CompressThreshold {
		return content, false
	}
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	w.Write(content)
	w.Close()
	if buf.Len() >= len(content) {
		return content, false
	}
	return buf.Bytes(), true
}

// decompress returns the original content of a stored blob.
func decompress(stored []byte, compressed bool) ([]byte, error) {
	if !compressed {
		return stored, nil
	}
	r, err := gzip.NewReader(bytes.NewReader(stored))
	if err != nil {
		return nil, fmt.Errorf("memory: stored content is not gzip: %w", err)
	}
	out, err := io.ReadAll(io.LimitReader(r, maxDecompressed))
	if err != nil {
		return nil, fmt.Errorf("memory: decompress: %w", err)
	}
	return out, nil
}

// BlobName is the blob of version v of a memory (spec 2.5):
// memory/{type}/{key}/v{version}, or with a custom name
// memory/{type}/{key}/{blobFilename}_v{version}{extension}.
func BlobName(typ, key string, version int, filename, ext string) string {
	if filename == "" && ext == "" {
		return fmt.Sprintf("memory/%s/%s/v%d", typ, key, version)
	}
	if filename == "" {
		filename = "blob"
	}
	return fmt.Sprintf("memory/%s/%s/%s_v%d%s", typ, key, filename, version, ext)
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

// EncodeContent renders content for JSON: text as is, binary as base64.
func EncodeContent(content []byte, encoding string) string {
	if encoding == "base64" {
		return base64.StdEncoding.EncodeToString(content)
	}
	return string(content)
}

// DownloadName is the file name a download is saved under: the uploaded
// file's name, else the last segment of the blob name.
func DownloadName(m *cairn.Memory, v *cairn.MemoryVersion) string {
	if v.Filename != "" {
		return v.Filename
	}
	name := v.BlobName[strings.LastIndexByte(v.BlobName, '/')+1:]
	if v.BlobExtension == "" && v.ContentEncoding == "" {
		name += ".txt"
	}
	return name
}
