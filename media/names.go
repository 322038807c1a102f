package media

import (
	"crypto/rand"
	"encoding/hex"
	"mime"
	"net/http"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cairn-dev/cairn"
)

// MaxNameRunes bounds the name part of a blob name; MaxExtLen the extension.
const (
	MaxNameRunes = 80
	MaxExtLen    = 12
)

// Category returns the category of a MIME type (spec 4.12).
func Category(mimeType string) string {
	switch {
	case strings.HasPrefix(mimeType, "image/"):
		return cairn.MediaPhoto
	case strings.HasPrefix(mimeType, "video/"):
		return cairn.MediaVideo
	case strings.HasPrefix(mimeType, "audio/"):
		return cairn.MediaAudio
	}
	return cairn.MediaDocument
}

// DetectMIME returns the MIME type of a file: the declared one when it is a
// valid media type other than application/octet-stream, otherwise the one
// sniffed from the first bytes (net/http's algorithm). Parameters are kept
// only for text types (charset).
func DetectMIME(declared string, head []byte) string {
	if mt, params, err := mime.ParseMediaType(declared); err == nil && mt != "application/octet-stream" && strings.Contains(mt, "/") {
		if cs, ok := params["charset"]; ok && strings.HasPrefix(mt, "text/") {
			return mime.FormatMediaType(mt, map[string]string{"charset": cs})
		}
		return mt
	}
	sniffed := http.DetectContentType(head)
	if mt, params, err := mime.ParseMediaType(sniffed); err == nil {
		if cs, ok := params["charset"]; ok && strings.HasPrefix(mt, "text/") {
			return mime.FormatMediaType(mt, map[string]string{"charset": cs})
		}
		return mt
	}
	return "application/octet-stream"
}

// SanitizeFilename returns a safe display name for a client's file name:
// the last path element (either separator), without control or format
// characters, trimmed, valid UTF-8, at most 255 bytes; "file" when nothing
// is left.
func SanitizeFilename(name string) string {
	name = strings.ToValidUTF8(name, "")
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == utf8.RuneError {
			return -1
		}
		return r
	}, name)
	for len(name) > 255 {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	for { // leading and trailing spaces and dots, until none is left
		trimmed := strings.Trim(strings.TrimSpace(name), ".")
		if trimmed == name {
			break
		}
		name = trimmed
	}
	if name == "" {
		return "file"
	}
	return name
}

// splitName splits a sanitised file name into a blob-safe stem and a
// lower-case extension (with its dot): the stem keeps letters, digits and
// "-_." and turns anything else into "-"; the extension keeps only ASCII
// letters and digits. A missing extension is taken from the MIME type.
func splitName(filename, mimeType string) (stem, ext string) {
	ext = strings.ToLower(path.Ext(filename))
	base := strings.TrimSuffix(filename, path.Ext(filename))
	if !validExt(ext) {
		base, ext = filename, ""
	}
	if ext == "" {
		if exts, _ := mime.ExtensionsByType(mimeType); len(exts) > 0 && validExt(exts[0]) {
			ext = exts[0]
		}
	}
	var b strings.Builder
	n := 0
	for _, r := range base {
		if n == MaxNameRunes {
			break
		}
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || r == '.':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
		n++
	}
	stem = strings.Trim(b.String(), ".-")
	if stem == "" {
		stem = "file"
	}
	return stem, ext
}

func validExt(ext string) bool {
	if len(ext) < 2 || len(ext) > MaxExtLen || ext[0] != '.' {
		return false
	}
	for _, c := range ext[1:] {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// randRead fills the random part of blob names (a test makes it collide).
var randRead = rand.Read

// BlobName returns media/{category}/{name}__{shortId}{ext} (spec 2.2), the
// name shown to the agent. It is not unique across agents: the bytes are
// stored under StorageKey.
func BlobName(category, filename, mimeType string) string {
	stem, ext := splitName(filename, mimeType)
	var b [4]byte
	_, _ = randRead(b[:])
	return "media/" + category + "/" + stem + "__" + hex.EncodeToString(b[:]) + ext
}

// StorageKey is the blob name a media's bytes are stored under:
// media/{agentId}/{mediaId}, which no other agent's or media's can be.
func StorageKey(agentID, mediaID string) string { return "media/" + agentID + "/" + mediaID }
