package s3

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"

	"github.com/minio/minio-go/v7"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

// attempts bounds the HEAD-then-GET rounds of a read whose blob keeps
// being replaced under it.
const attempts = 4

// head reads the record of key with a HEAD request; ENOTFOUND when there is
// no object (expiry is the caller's business).
func (s *Store) head(ctx context.Context, key string) (*record, error) {
	oi, err := s.client.StatObject(ctx, s.bucket, key, minio.StatObjectOptions{})
	if err != nil {
		return nil, s.fail(ctx, "reading blob metadata", err)
	}
	return decodeRecord(oi.Metadata, oi.Size, oi.ETag)
}

// live reads the record of a blob that exists and has not expired.
func (s *Store) live(ctx context.Context, key string) (*record, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rec, err := s.head(ctx, key)
	if err != nil {
		return nil, err
	}
	if blob.Expired(rec.ExpiresAt, s.clock.Now()) {
		return nil, errNotFound()
	}
	return rec, nil
}

// Stat returns the blob's Info; ENOTFOUND when it is absent or expired.
func (s *Store) Stat(ctx context.Context, name string) (blob.Info, error) {
	key, err := s.key(name)
	if err != nil {
		return blob.Info{}, err
	}
	defer s.readName(key)()
	rec, err := s.live(ctx, key)
	if err != nil {
		return blob.Info{}, err
	}
	return rec.info(name), nil
}

// Get returns a reader over length bytes of the blob from offset (length <
// 0: to the end). The range must lie inside the blob, else ERANGE. Every
// chunk the reader returns is verified first.
func (s *Store) Get(ctx context.Context, name string, offset, length int64) (_ io.ReadCloser, _ blob.Info, err error) {
	key, err := s.key(name)
	if err != nil {
		return nil, blob.Info{}, err
	}
	unlock := s.readName(key)
	defer func() {
		if err != nil {
			unlock()
		}
	}()
	if offset == 0 && length < 0 {
		return s.getWhole(ctx, key, name, unlock)
	}
	for range attempts {
		rec, err := s.live(ctx, key)
		if err != nil {
			return nil, blob.Info{}, err
		}
		end, err := blob.Window(rec.Size, offset, length)
		if err != nil {
			return nil, blob.Info{}, err
		}
		r := s.newReader(ctx, key, rec, offset, end, unlock)
		if offset < end {
			if err := r.fetch(offset / rec.ChunkSize); errors.Is(err, errReplaced) {
				continue
			} else if err != nil {
				return nil, blob.Info{}, err
			}
		}
		return r, rec.info(name), nil
	}
	return nil, blob.Info{}, cairn.Errorf(cairn.EUPSTREAM, "blob kept changing while it was read")
}

// getWhole reads a whole blob with one GET, which brings the metadata with
// the body.
func (s *Store) getWhole(ctx context.Context, key, name string, unlock func()) (io.ReadCloser, blob.Info, error) {
	if err := ctx.Err(); err != nil {
		return nil, blob.Info{}, err
	}
	body, oi, h, err := s.core.GetObject(ctx, s.bucket, key, minio.GetObjectOptions{})
	if err != nil {
		return nil, blob.Info{}, s.fail(ctx, "reading a blob", err)
	}
	rec, err := decodeRecord(h, oi.Size, oi.ETag)
	if err == nil && blob.Expired(rec.ExpiresAt, s.clock.Now()) {
		err = errNotFound()
	}
	if err != nil {
		body.Close()
		return nil, blob.Info{}, err
	}
	r := s.newReader(ctx, key, rec, 0, rec.Size, unlock)
	r.body, r.next = body, 0
	return r, rec.info(name), nil
}

// Open returns a verifying, seekable reader over the whole blob. It GETs
// content only when read, from the chunk of the position read.
func (s *Store) Open(ctx context.Context, name string) (blob.ReadSeekCloser, blob.Info, error) {
	key, err := s.key(name)
	if err != nil {
		return nil, blob.Info{}, err
	}
	unlock := s.readName(key)
	rec, err := s.live(ctx, key)
	if err != nil {
		unlock()
		return nil, blob.Info{}, err
	}
	return s.newReader(ctx, key, rec, 0, rec.Size, unlock), rec.info(name), nil
}

// errReplaced: the object under the key is no longer the version read.
var errReplaced = cairn.Errorf(cairn.ENOTFOUND, "blob was replaced or deleted while it was read")

// reader reads the window [start, end) of one version of a blob and returns
// only bytes whose chunk matched its recorded digest. It is an io.ReadSeeker
// (positions relative to start).
type reader struct {
	s          *Store
	ctx        context.Context
	key        string
	rec        *record
	start, end int64
	pos        int64 // absolute offset of the next byte

	body io.ReadCloser // GET response delivering chunk next on
	next int64

	buf      []byte // verified copy of chunk bufChunk
	bufChunk int64  // -1: buf holds nothing
	closed   bool
	unlock   func() // releases the name's read lock (see lockName)
}

func (s *Store) newReader(ctx context.Context, key string, rec *record, start, end int64, unlock func()) *reader {
	return &reader{s: s, ctx: ctx, key: key, rec: rec, start: start, end: end, pos: start, bufChunk: -1, unlock: unlock}
}

// fetch starts a GET of the chunks from ci to the one holding the window's
// last byte, and checks that it delivers the version the reader reads.
func (r *reader) fetch(ci int64) error {
	r.drop()
	cs := r.rec.ChunkSize
	last := min(r.rec.Size, (r.end+cs-1)/cs*cs) - 1
	for range 2 {
		var opts minio.GetObjectOptions
		opts.Set("Range", fmt.Sprintf("bytes=%d-%d", ci*cs, last))
		if r.rec.etag != "" {
			_ = opts.SetMatchETag(r.rec.etag)
		}
		body, _, h, err := r.s.core.GetObject(r.ctx, r.s.bucket, r.key, opts)
		if isPrecondition(err) && r.ctx.Err() == nil {
			// Another ETag: a copy (ExtendExpiry) may have changed it.
			cur, herr := r.s.head(r.ctx, r.key)
			if herr != nil || cur.Gen != r.rec.Gen {
				return errReplaced
			}
			r.rec.etag = cur.etag
			continue
		}
		if err != nil {
			if isNotFound(err) {
				return errReplaced
			}
			return r.s.fail(r.ctx, "reading a blob", err)
		}
		if h.Get("X-Amz-Meta-"+metaGen) != r.rec.Gen {
			body.Close()
			return errReplaced
		}
		r.body, r.next = body, ci
		return nil
	}
	return errReplaced
}

// drop closes the current GET, if any.
func (r *reader) drop() {
	if r.body != nil {
		r.body.Close()
		r.body = nil
	}
}

// load returns chunk ci, read and verified.
func (r *reader) load(ci int64) ([]byte, error) {
	if ci == r.bufChunk {
		return r.buf, nil
	}
	if r.body == nil || r.next != ci {
		if err := r.fetch(ci); err != nil {
			return nil, err
		}
	}
	n := blob.ChunkLen(r.rec.Size, r.rec.ChunkSize, ci)
	if int64(cap(r.buf)) < n {
		r.buf = make([]byte, r.rec.ChunkSize)
	}
	r.bufChunk = -1
	buf := r.buf[:n]
	if _, err := io.ReadFull(r.body, buf); err != nil {
		r.drop()
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil, errCorrupt("size")
		}
		return nil, r.s.fail(r.ctx, "reading a blob", err)
	}
	r.next = ci + 1
	if sum := sha256.Sum256(buf); !bytes.Equal(sum[:], blob.ChunkSum(r.rec.Sums, ci)) {
		r.drop()
		return nil, errCorrupt("content")
	}
	r.buf, r.bufChunk = buf, ci
	return buf, nil
}

// Read reads up to len(p) verified bytes.
func (r *reader) Read(p []byte) (int, error) {
	if r.closed {
		return 0, errClosed
	}
	return blob.ReadChunks(p, &r.pos, r.end, r.rec.ChunkSize, nil, r.load)
}

var errClosed = errors.New("s3: read of a closed blob reader")

// Seek sets the position for the next Read, relative to the window's start
// (blob.SeekWindow).
func (r *reader) Seek(offset int64, whence int) (int64, error) {
	if r.closed {
		return 0, errClosed
	}
	return blob.SeekWindow(&r.pos, r.start, r.end, offset, whence)
}

// Close ends the GET in progress. Closing twice is harmless.
func (r *reader) Close() error {
	r.drop()
	r.closed, r.buf = true, nil
	r.unlock()
	return nil
}
