package api

import (
	"cmp"
	"errors"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// MaxRanges is the most byte ranges one request is served: a Range header
// naming more (after overlapping and adjacent ranges are merged) is
// ignored and the whole content is served with 200, as RFC 9110 14.2
// allows, so that thousands of tiny ranges cannot make the server read
// and verify a chunk per range for the price of one request.
const MaxRanges = 16

// serveRanges serves content as http.ServeContent does, after capping and
// coalescing the request's byte ranges. content should be a lockedReader
// that the caller closes.
func serveRanges(w http.ResponseWriter, r *http.Request, size int64, modtime time.Time, content io.ReadSeeker) {
	if h := r.Header.Get("Range"); h != "" {
		if wellFormedRange(h) {
			_, spec, _ := strings.Cut(h, "=")
			r.Header.Set("Range", "bytes="+spec) // the unit is case-insensitive
		} else {
			// An unknown unit (items=0-5) or a malformed byte range
			// (bytes=abc) is ignored, as RFC 9110 14.2 says: the whole
			// content, 200. Only a well-formed range the content cannot
			// satisfy is 416.
			r.Header.Del("Range")
		}
	}
	if h := r.Header.Get("Range"); h != "" {
		if merged, ok := coalesceRanges(h, size); ok {
			if merged == "" {
				r.Header.Del("Range")
			} else {
				r.Header.Set("Range", merged)
			}
		}
	}
	http.ServeContent(w, r, "", modtime, content)
}

// wellFormedRange reports whether h is a "bytes" Range header whose every
// range is "first-last" (first <= last), "first-" or "-suffix" in digits,
// whatever the content's size.
func wellFormedRange(h string) bool {
	unit, spec, found := strings.Cut(h, "=")
	if !found || !strings.EqualFold(strings.TrimSpace(unit), "bytes") {
		return false
	}
	digits := func(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }
	n := 0
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		a, b, found := strings.Cut(part, "-")
		switch {
		case !found, a == "" && !digits(b), a != "" && !digits(a), a != "" && b != "" && !digits(b):
			return false
		case a != "" && b != "":
			x, err1 := strconv.ParseUint(a, 10, 64)
			y, err2 := strconv.ParseUint(b, 10, 64)
			if err1 == nil && err2 == nil && x > y {
				return false
			}
		}
		n++
	}
	return n > 0
}

// coalesceRanges resolves a "bytes=" Range header against size, merges
// overlapping and adjacent ranges and returns the header to serve: ""
// when there are more than MaxRanges (serve the whole content). ok is false
// when the header does not parse or a range is not satisfiable: it is then
// left to http.ServeContent (which ignores it, or answers 416).
func coalesceRanges(h string, size int64) (string, bool) {
	spec, found := strings.CutPrefix(h, "bytes=")
	if !found {
		return "", false
	}
	rs, ok := parseRanges(spec, size)
	switch {
	case !ok || len(rs) == 0:
		return "", false
	case len(rs) > maxParsedRanges:
		return "", true
	}
	merged := mergeRanges(rs)
	if len(merged) > MaxRanges {
		return "", true
	}
	if len(merged) == len(rs) {
		merged = rs // nothing coalesced: the parts keep the request's order (RFC 9110 14.6)
	}
	return formatRanges(merged), true
}

// maxParsedRanges is where parseRanges stops reading: so many ranges
// cannot merge into MaxRanges often enough to be worth reading further.
const maxParsedRanges = 64 * MaxRanges

// byteRange is a satisfiable range of a Range header, both ends included.
type byteRange struct{ start, end int64 }

// parseRanges parses the comma-separated ranges of a "bytes=" header
// against size, in the request's order, stopping after maxParsedRanges
// + 1 ranges. ok is false when a range does not parse or is not
// satisfiable.
func parseRanges(spec string, size int64) (rs []byteRange, ok bool) {
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		r, ok := parseRange(part, size)
		if !ok {
			return nil, false
		}
		rs = append(rs, r)
		if len(rs) > maxParsedRanges { // no need to read further
			break
		}
	}
	return rs, true
}

// parseRange parses one range, "start-end", "start-" or the suffix "-n"
// (the last n bytes), against size; the end is clipped to the content.
func parseRange(part string, size int64) (byteRange, bool) {
	a, b, found := strings.Cut(part, "-")
	if !found {
		return byteRange{}, false
	}
	if a == "" {
		n, err := strconv.ParseInt(b, 10, 64)
		if err != nil || n <= 0 {
			return byteRange{}, false
		}
		return byteRange{max(size-n, 0), size - 1}, true
	}
	s, err := strconv.ParseInt(a, 10, 64)
	if err != nil || s < 0 || s >= size {
		return byteRange{}, false
	}
	e := size - 1
	if b != "" {
		if e, err = strconv.ParseInt(b, 10, 64); err != nil || e < s {
			return byteRange{}, false
		}
		e = min(e, size-1)
	}
	return byteRange{s, e}, true
}

// mergeRanges returns rs sorted by start, with overlapping and adjacent
// ranges merged; rs is left as it is.
func mergeRanges(rs []byteRange) []byteRange {
	sorted := slices.SortedFunc(slices.Values(rs), func(x, y byteRange) int { return cmp.Compare(x.start, y.start) })
	merged := sorted[:1]
	for _, r := range sorted[1:] {
		last := &merged[len(merged)-1]
		if r.start <= last.end+1 {
			last.end = max(last.end, r.end)
			continue
		}
		merged = append(merged, r)
	}
	return merged
}

// formatRanges writes ranges as a Range header.
func formatRanges(rs []byteRange) string {
	var b strings.Builder
	b.WriteString("bytes=")
	for i, r := range rs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(r.start, 10))
		b.WriteByte('-')
		b.WriteString(strconv.FormatInt(r.end, 10))
	}
	return b.String()
}

// lockedReader serialises Read, Seek and Close. http.ServeContent reads
// the ranges of a multipart/byteranges answer in a goroutine of its own,
// which can still be in Read when the client has gone and the handler
// closes the blob (and returns its pooled buffer): Close waits for that
// Read, and any Read after Close fails.
type lockedReader struct {
	mu     sync.Mutex
	rc     io.ReadSeekCloser
	closed bool
}

var errReaderClosed = errors.New("api: blob reader closed")

func (l *lockedReader) Read(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return 0, errReaderClosed
	}
	return l.rc.Read(p)
}

func (l *lockedReader) Seek(off int64, whence int) (int64, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return 0, errReaderClosed
	}
	return l.rc.Seek(off, whence)
}

func (l *lockedReader) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	return l.rc.Close()
}

// SyscallConn hands over the raw file of a reader that has one (a blob
// store's verified content file), for the kernel to send the rest of it
// (net.TCPConn.ReadFrom); an error, after which the copy goes through
// Read, for any other.
func (l *lockedReader) SyscallConn() (syscall.RawConn, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil, errReaderClosed
	}
	sc, ok := l.rc.(syscall.Conn)
	if !ok {
		return nil, errNoFile
	}
	return sc.SyscallConn()
}

var errNoFile = errors.New("api: blob reader has no file")

var _ io.ReadSeekCloser = (*lockedReader)(nil)
