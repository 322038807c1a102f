package fs

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/cairn-dev/cairn/blob"
)

// chunkPool holds chunk-sized buffers for writers and readers.
var chunkPool = sync.Pool{New: func() any { b := make([]byte, chunkSize); return &b }}

// Put stores r under name, replacing any previous blob with that name. The
// new blob becomes visible only once its content and sidecar are durable.
// A failure of r is returned wrapped; a done ctx stops the write with ctx's
// error; a failure of the disk is EUPSTREAM. An ExpiresAt in the past stores
// a blob that is already expired.
func (s *Store) Put(ctx context.Context, name string, r io.Reader, opts blob.PutOptions) (blob.Info, error) {
	if err := ValidateName(name); err != nil {
		return blob.Info{}, err
	}
	if err := ctx.Err(); err != nil {
		return blob.Info{}, err
	}
	l := s.locate(name)
	gen := newGen()
	tmp := filepath.Join(l.dir, l.key+"."+gen+".blob.tmp")
	s.track(tmp, true)
	defer s.track(tmp, false)
	rec, err := writeContent(ctx, tmp, r)
	if err != nil {
		os.Remove(tmp)
		return blob.Info{}, err
	}
	rec.Name, rec.Gen, rec.ContentType = name, gen, opts.ContentType
	rec.CreatedAt = s.clock.Now().UTC()
	if !opts.ExpiresAt.IsZero() {
		rec.ExpiresAt = opts.ExpiresAt.UTC()
	}

	lk := &s.locks[l.stripe]
	lk.Lock()
	defer lk.Unlock()
	final := l.blobPath(gen)
	if err := os.Rename(tmp, final); err != nil {
		os.Remove(tmp)
		return blob.Info{}, upstream("writing blob failed", err)
	}
	if err := syncDir(l.dir); err != nil {
		os.Remove(final)
		return blob.Info{}, upstream("writing blob failed", err)
	}
	old, _ := readRecord(l) // absent or damaged: nothing to remove (a sweep finds orphans)
	if committed, err := writeRecord(l, rec); err != nil {
		if !committed {
			os.Remove(final)
		}
		return blob.Info{}, err
	}
	if old != nil && old.Gen != gen {
		os.Remove(l.blobPath(old.Gen)) // a failure leaves an orphan for the sweep
	}
	return rec.info(), nil
}

// writeContent copies r into a new file at path, fsyncs it, and returns the
// record of its size and digests.
func writeContent(ctx context.Context, path string, r io.Reader) (*record, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, upstream("writing blob failed", err)
	}
	defer f.Close()
	bufp := chunkPool.Get().(*[]byte)
	defer chunkPool.Put(bufp)
	buf := *bufp
	whole := sha256.New()
	rec := &record{Format: metaFormat, ChunkSize: chunkSize}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		n, rerr := io.ReadFull(r, buf)
		if n > 0 {
			sum := sha256.Sum256(buf[:n])
			rec.sums = append(rec.sums, sum[:]...)
			whole.Write(buf[:n])
			if _, err := f.Write(buf[:n]); err != nil {
				return nil, upstream("writing blob failed", err)
			}
			rec.Size += int64(n)
		}
		if rerr == io.EOF || rerr == io.ErrUnexpectedEOF {
			break
		} else if rerr != nil {
			return nil, fmt.Errorf("fs: reading blob content: %w", rerr)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := f.Sync(); err != nil {
		return nil, upstream("writing blob failed", err)
	}
	if err := f.Close(); err != nil && !errors.Is(err, os.ErrClosed) {
		return nil, upstream("writing blob failed", err)
	}
	rec.SHA256 = hex.EncodeToString(whole.Sum(nil))
	rec.Chunks = hex.EncodeToString(rec.sums)
	return rec, nil
}
