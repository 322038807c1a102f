package api

import (
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/gin-gonic/gin"
)

// streamMedia is GET and HEAD /v1/media/:id/stream: the bytes, with Range
// (single, suffix, open and up to MaxRanges multiple ranges, merged when
// they overlap or touch), If-Range, ETag and Last-Modified handled by
// http.ServeContent over a seekable blob reader.
// Its 412 and 416 answers are rewritten as problem documents.
func (s *Server) streamMedia(c *gin.Context) error {
	m, rc, err := s.Media.Open(c.Request.Context(), agentOf(c).ID, c.Param("id"))
	if err != nil {
		return err
	}
	content := &lockedReader{rc: rc}
	defer content.Close()
	h := c.Writer.Header()
	h.Set("Content-Type", m.MimeType)
	h.Set("Content-Disposition", contentDisposition("inline", m.Filename))
	h.Set("ETag", `"`+m.SHA256+`"`)
	h.Set("Accept-Ranges", "bytes")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox") // stored HTML or SVG never runs
	h.Set("Cache-Control", "private, no-cache")
	return serveContent(c, m.SizeBytes, m.CreatedAt, content)
}

// contentHeaders are the headers of served content, dropped from a 412 or
// 416 answer (a problem document).
var contentHeaders = []string{"Content-Type", "Content-Disposition", "Content-Length", "X-Content-Type-Options",
	"Content-Security-Policy", "ETag", "Cache-Control", "X-Content-SHA256"}

// serveContent serves content of size bytes with Range, If-Range, ETag and
// Last-Modified (serveRanges) and returns the 412 and 416 answers of
// http.ServeContent as errors, for problem documents without the content's
// headers.
func serveContent(c *gin.Context, size int64, modtime time.Time, content io.ReadSeeker) error {
	w := &problemCatcher{ResponseWriter: c.Writer}
	c.Writer = w // the access log counts what ReadFrom sends
	serveRanges(w, c.Request, size, modtime, content)
	if w.status == 0 {
		return nil
	}
	c.Writer = w.ResponseWriter // for the problem document
	for _, k := range contentHeaders {
		c.Writer.Header().Del(k)
	}
	if w.status == http.StatusRequestedRangeNotSatisfiable {
		return cairn.Errorf(cairn.ERANGE, "The requested range is not satisfiable for %d bytes.", size).
			With("sizeBytes", size)
	}
	return cairn.Errorf(cairn.EPRECONDITION, "A precondition of the request failed.")
}

// problemCatcher holds back the 412 and 416 answers of http.ServeContent
// (plain text) so that the handler can write problem documents instead.
type problemCatcher struct {
	gin.ResponseWriter
	status int
	sent   int // bytes ReadFrom sent past the gin writer
}

func (w *problemCatcher) WriteHeader(code int) {
	if code == http.StatusRequestedRangeNotSatisfiable || code == http.StatusPreconditionFailed {
		w.status = code
		return
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *problemCatcher) Write(b []byte) (int, error) {
	if w.status != 0 {
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

// ReadFrom hands a large src to the connection's ReadFrom, so that a file
// the blob store hands out (a verified one) is sent by the kernel
// (sendfile) instead of copied through the process. A small one (a short
// Range) is copied into the response buffer: one write, no file to open.
func (w *problemCatcher) ReadFrom(src io.Reader) (int64, error) {
	if w.status != 0 {
		return io.Copy(io.Discard, src)
	}
	if lr, ok := src.(*io.LimitedReader); ok && lr.N <= smallCopy {
		return io.Copy(writerOnly{w}, src)
	}
	u, ok := w.ResponseWriter.(interface{ Unwrap() http.ResponseWriter })
	if !ok {
		return io.Copy(writerOnly{w}, src)
	}
	rf, ok := u.Unwrap().(io.ReaderFrom)
	if !ok {
		return io.Copy(writerOnly{w}, src)
	}
	w.ResponseWriter.WriteHeaderNow()
	n, err := rf.ReadFrom(src)
	w.sent += int(n)
	return n, err
}

// Size counts the bytes ReadFrom sent past the gin writer too.
func (w *problemCatcher) Size() int { return w.ResponseWriter.Size() + w.sent }

// smallCopy is the largest window ReadFrom copies through the process.
const smallCopy = 128 << 10

// writerOnly hides ReadFrom from io.Copy.
type writerOnly struct{ io.Writer }

// contentDisposition returns the header with an ASCII fallback filename and
// the exact name as RFC 8187 filename* (RFC 6266).
func contentDisposition(kind, filename string) string {
	fallback := strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e || r == '"' || r == '\\' || r == '%' || r == ';' {
			return '_'
		}
		return r
	}, filename)
	v := mime.FormatMediaType(kind, map[string]string{"filename": filename})
	if v == "" { // not representable: fall back to ASCII only
		return kind + `; filename="` + fallback + `"`
	}
	return kind + `; filename="` + fallback + `"; filename*=UTF-8''` + rfc8187(filename)
}

// rfc8187 percent-encodes s as an RFC 8187 value (attr-char kept).
func rfc8187(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$&+-.^_`|~", c) >= 0 {
			b.WriteByte(c)
		} else {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}
