package fs

import (
	"bytes"
	"crypto/sha256"
	"io"
	"os"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

// content is where a reader reads a blob's bytes from: its content file, or
// the bytes of an inline blob read with its sidecar.
type content interface {
	io.ReaderAt
	io.Closer
}

// inlineContent is the content of an inline blob.
type inlineContent struct{ *bytes.Reader }

func (inlineContent) Close() error { return nil }

// reader reads the window [start, end) of a blob's content and returns
// only bytes whose chunk matched its recorded digest. It is an
// io.ReadSeeker (positions relative to start) and an io.WriterTo.
type reader struct {
	f          content
	rec        *record
	start, end int64
	pos        int64 // absolute offset of the next byte

	bufp     *[]byte // verified copy of chunk bufChunk
	bufChunk int64   // -1: buf holds nothing

	cache *cache // the store's read cache (nil: none)
	key   string // the blob's key in it
	prev  int64  // the chunk loaded last (-2: none)

	// next is the first chunk not yet verified from the file by this
	// reader when it verified chunks 0 to next-1 from the file, in order;
	// a reader that verifies the whole file so marks it verified on Close
	// (verify.go).
	next  int64
	mark  bool // the file is a content file to verify this way
	store *Store
	name  string
	began time.Time
}

func (s *Store) newReader(name string, f content, rec *record, start, end int64) *reader {
	r := &reader{f: f, rec: rec, start: start, end: end, pos: start, bufChunk: -1, prev: -2, store: s, name: name,
		began: time.Now()}
	if s.cache != nil {
		r.cache, r.key = s.cache, s.locate(name).key
	}
	if sf, ok := f.(*sharedFile); ok && sf.h.ok && start == 0 && end == rec.Size {
		r.mark = rec.Verified == nil || *rec.Verified != sf.h.st
	}
	return r
}

// verified notes that chunk ci was read from the file and matched.
func (r *reader) verified(ci int64) {
	if ci == r.next {
		r.next++
	}
}

// markIfVerified marks the content file verified when this reader read
// and verified all of it.
func (r *reader) markIfVerified() {
	if !r.mark || r.next*r.rec.ChunkSize < r.rec.Size {
		return
	}
	sf := r.f.(*sharedFile)
	// The handle's stamp is from when it was opened, maybe long before this
	// reader began; markVerified checks that it is still the file's.
	r.store.markVerified(r.store.locate(r.name), r.rec.Gen, sf.h.st, r.began)
}

// Read reads up to len(p) verified bytes. Whole chunks that fit in p are
// read into p directly; anything else goes through the chunk buffer.
func (r *reader) Read(p []byte) (int, error) {
	if r.f == nil {
		return 0, os.ErrClosed
	}
	return blob.ReadChunks(p, &r.pos, r.end, r.rec.ChunkSize, r.readNew, r.load)
}

// readNew is readDirect unless chunk ci is the one buffered.
func (r *reader) readNew(p []byte, ci int64) (int, error) {
	if ci == r.bufChunk {
		return 0, nil
	}
	return r.readDirect(p, ci)
}

// readDirect reads the whole chunks from ci on that fit in p and end inside
// the window, and verifies them in place. It returns the verified bytes; 0
// and no error when not even one chunk fits.
func (r *reader) readDirect(p []byte, ci int64) (int, error) {
	var total int64
	for c := ci; ; c++ {
		n := blob.ChunkLen(r.rec.Size, r.rec.ChunkSize, c)
		if n <= 0 || c*r.rec.ChunkSize+n > r.end || total+n > int64(len(p)) {
			break
		}
		total += n
	}
	if total == 0 {
		return 0, nil
	}
	if _, err := r.f.ReadAt(p[:total], r.pos); err != nil {
		return 0, r.readErr(err)
	}
	var done int64
	for c := ci; done < total; c++ {
		n := blob.ChunkLen(r.rec.Size, r.rec.ChunkSize, c)
		if sum := sha256.Sum256(p[done : done+n]); !bytes.Equal(sum[:], blob.ChunkSum(r.rec.sums, c)) {
			if done > 0 {
				break // return the verified prefix; the next Read fails
			}
			return 0, errCorrupt("content")
		}
		r.verified(c)
		done += n
	}
	r.prev = (r.pos + done - 1) / r.rec.ChunkSize // the next load follows it
	r.pos += done
	return int(done), nil
}

// load returns chunk ci, read into the chunk buffer and verified, or as the
// read cache holds it. A chunk loaded at random (not the one after the last
// loaded: a Range read, not a stream) goes into the cache, so that a
// stream of a large blob does not push out the chunks small reads use.
func (r *reader) load(ci int64) ([]byte, error) {
	random := ci != r.prev+1
	r.prev = ci
	if ci != r.bufChunk && !(r.mark && ci == r.next) { // a chunk to verify from the file
		if b := r.cache.chunk(r.key, r.rec.Gen, ci); b != nil {
			return b, nil
		}
	}
	n := blob.ChunkLen(r.rec.Size, r.rec.ChunkSize, ci)
	if r.bufp == nil {
		if r.rec.ChunkSize == chunkSize {
			r.bufp = chunkPool.Get().(*[]byte)
		} else {
			b := make([]byte, r.rec.ChunkSize)
			r.bufp = &b
		}
	}
	buf := (*r.bufp)[:n]
	if ci == r.bufChunk {
		return buf, nil
	}
	r.bufChunk = -1
	if _, err := r.f.ReadAt(buf, ci*r.rec.ChunkSize); err != nil {
		return nil, r.readErr(err)
	}
	if sum := sha256.Sum256(buf); !bytes.Equal(sum[:], blob.ChunkSum(r.rec.sums, ci)) {
		return nil, errCorrupt("content")
	}
	r.bufChunk = ci
	r.verified(ci)
	if random {
		r.cache.putChunk(r.key, r.rec.Gen, ci, buf)
	}
	return buf, nil
}

func (r *reader) readErr(err error) error {
	if err == io.EOF {
		return errCorrupt("size")
	}
	return cairn.Upstream(err, "reading blob failed")
}

// WriteTo writes the rest of the window to w, chunk by chunk, each verified
// before it is written.
func (r *reader) WriteTo(w io.Writer) (int64, error) {
	if r.f == nil {
		return 0, os.ErrClosed
	}
	var total int64
	for r.pos < r.end {
		ci := r.pos / r.rec.ChunkSize
		buf, err := r.load(ci)
		if err != nil {
			return total, err
		}
		base := ci * r.rec.ChunkSize
		n, err := w.Write(buf[r.pos-base : min(int64(len(buf)), r.end-base)])
		total += int64(n)
		r.pos += int64(n)
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

// Seek sets the position for the next Read, relative to the window's start
// (blob.SeekWindow).
func (r *reader) Seek(offset int64, whence int) (int64, error) {
	if r.f == nil {
		return 0, os.ErrClosed
	}
	return blob.SeekWindow(&r.pos, r.start, r.end, offset, whence)
}

// Close releases the file and the chunk buffer. Closing twice is harmless.
func (r *reader) Close() error {
	if r.f == nil {
		return nil
	}
	r.markIfVerified()
	if r.bufp != nil && len(*r.bufp) == chunkSize {
		chunkPool.Put(r.bufp)
	}
	r.bufp = nil
	err := r.f.Close()
	r.f = nil
	return err
}
