package fs

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

// Stat returns the blob's Info; ENOTFOUND when it is absent or expired.
func (s *Store) Stat(ctx context.Context, name string) (blob.Info, error) {
	l, lk, err := s.lookup(ctx, name)
	if err != nil {
		return blob.Info{}, err
	}
	lk.RLock()
	rec, err := s.cachedRecord(l)
	lk.RUnlock()
	if err != nil {
		return blob.Info{}, err
	}
	if blob.Expired(rec.ExpiresAt, s.clock.Now()) {
		return blob.Info{}, cairn.Errorf(cairn.ENOTFOUND, "blob not found")
	}
	return rec.info(), nil
}

// Get returns a reader over length bytes of the blob from offset (length < 0:
// to the end). The range must lie inside the blob (offset+length <= size),
// else ERANGE. Every chunk the reader returns is verified first.
func (s *Store) Get(ctx context.Context, name string, offset, length int64) (io.ReadCloser, blob.Info, error) {
	rec, f, err := s.openContent(ctx, name)
	if err != nil {
		return nil, blob.Info{}, err
	}
	end, err := blob.Window(rec.Size, offset, length)
	if err != nil {
		f.Close()
		return nil, blob.Info{}, err
	}
	return s.newReader(name, f, rec, offset, end), rec.info(), nil
}

// Open returns a seekable reader over the whole blob: the content file
// itself when it is verified and unchanged (verify.go), else a verifying
// reader.
func (s *Store) Open(ctx context.Context, name string) (blob.ReadSeekCloser, blob.Info, error) {
	rec, f, err := s.openContent(ctx, name)
	if err != nil {
		return nil, blob.Info{}, err
	}
	r := s.newReader(name, f, rec, 0, rec.Size)
	if v := openVerified(s.locate(name), rec, r); v != nil {
		return v, rec.info(), nil
	}
	return r, rec.info(), nil
}

// openContent reads the sidecar and opens the content file it names (or
// takes it from the open handles, handles.go), under the shared lock so
// that a concurrent Put cannot remove the file between the two. The content
// of an inline blob came with its sidecar.
func (s *Store) openContent(ctx context.Context, name string) (*record, content, error) {
	l, lk, err := s.lookup(ctx, name)
	if err != nil {
		return nil, nil, err
	}
	lk.RLock()
	rec, err := s.cachedRecord(l)
	if err != nil {
		lk.RUnlock()
		return nil, nil, err
	}
	if blob.Expired(rec.ExpiresAt, s.clock.Now()) {
		lk.RUnlock()
		return nil, nil, cairn.Errorf(cairn.ENOTFOUND, "blob not found")
	}
	if rec.isInline() {
		lk.RUnlock()
		return rec, inlineContent{bytes.NewReader(rec.inline)}, nil
	}
	defer lk.RUnlock()
	if h := s.handles.get(l.key, rec.Gen); h != nil {
		return rec, &sharedFile{s.handles, h}, nil
	}
	f, err := os.Open(l.blobPath(rec.Gen))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, cairn.Errorf(cairn.EUPSTREAM, "stored blob content is missing")
	} else if err != nil {
		return nil, nil, cairn.Upstream(err, "reading blob failed")
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, cairn.Upstream(err, "reading blob failed")
	}
	if fi.Size() != rec.Size {
		f.Close()
		return nil, nil, errCorrupt("size")
	}
	st, ok := stampOf(fi)
	h := s.handles.put(&handle{key: l.key, gen: rec.Gen, f: f, st: st, ok: ok})
	return rec, &sharedFile{s.handles, h}, nil
}
