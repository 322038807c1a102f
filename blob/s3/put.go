package s3

import (
	"bytes"
	"context"
	"crypto/md5"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"

	"github.com/minio/minio-go/v7"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

// memSpool is the most content a Put keeps in memory before it spools to
// a temporary file.
const memSpool = 1 << 20

// Put stores r under name: it creates, or with opts.Replace replaces, the
// blob (blob.Store.Put). The content is read whole first (see the package
// doc), then uploaded in one PUT. A failure of r is returned wrapped; a
// done ctx stops the Put with ctx's error; a failure of the service is
// EUPSTREAM. An ExpiresAt in the past stores a blob that is already
// expired.
func (s *Store) Put(ctx context.Context, name string, r io.Reader, opts blob.PutOptions) (blob.Info, error) {
	key, err := s.key(name)
	if err != nil {
		return blob.Info{}, err
	}
	if len(encodeType(opts.ContentType)) > maxTypeLen {
		return blob.Info{}, cairn.Errorf(cairn.EINVALID, "content type is longer than the blob store keeps")
	}
	if err := ctx.Err(); err != nil {
		return blob.Info{}, err
	}
	sp, err := s.spool(ctx, r)
	if err != nil {
		return blob.Info{}, err
	}
	defer sp.close()
	rec := &record{Gen: newGen(), Size: sp.size, SHA256: hex.EncodeToString(sp.sha256), ChunkSize: chunkSizeFor(sp.size),
		ContentType: opts.ContentType, CreatedAt: s.clock.Now().UTC()}
	if !opts.ExpiresAt.IsZero() {
		rec.ExpiresAt = opts.ExpiresAt.UTC()
	}
	if rec.Sums, err = sp.chunkSums(rec.ChunkSize); err != nil {
		return blob.Info{}, fmt.Errorf("s3: reading the spooled content: %w", err)
	}
	if err := s.upload(ctx, key, sp, rec, opts.Replace); err != nil {
		return blob.Info{}, err
	}
	return rec.info(name), nil
}

// upload PUTs the spooled content under key: unconditionally with replace,
// else only where no live blob holds the name.
func (s *Store) upload(ctx context.Context, key string, sp *spool, rec *record, replace bool) error {
	defer s.lockName(key)()
	if replace {
		return s.put(ctx, key, sp, rec, "")
	}
	if !s.conditional {
		// Best effort: serialised in the process, checked, then written.
		old, err := s.head(ctx, key)
		switch {
		case err == nil && !blob.Expired(old.ExpiresAt, s.clock.Now()), notOurs(err):
			return errTaken()
		case err != nil && !cairn.IsCode(err, cairn.ENOTFOUND):
			return err
		}
		return s.put(ctx, key, sp, rec, "")
	}
	cond := "*" // If-None-Match: * first; If-Match: the ETag of an expired holder after
	for range 4 {
		err := s.put(ctx, key, sp, rec, cond)
		if err == nil || !cairn.IsCode(err, cairn.EPRECONDITION) {
			return err
		}
		old, err := s.head(ctx, key)
		switch {
		case err == nil && old.Gen == rec.Gen:
			// Our own blob: the client sent the PUT again after an attempt
			// the server stored lost its answer.
			return nil
		case cairn.IsCode(err, cairn.ENOTFOUND): // deleted meanwhile
			cond = "*"
		case notOurs(err), err == nil && !blob.Expired(old.ExpiresAt, s.clock.Now()):
			return errTaken() // a live blob, or an object that is not one of ours
		case err != nil:
			return err
		case old.etag == "":
			return errTaken()
		default:
			cond = old.etag
		}
	}
	return errTaken()
}

func errTaken() error {
	return cairn.Errorf(cairn.ECONFLICT, "a blob with this name exists")
}

// put sends one PUT of the spooled content with rec's metadata. cond ""
// sends no condition, "*" If-None-Match: *, anything else If-Match: cond.
// A failed condition is EPRECONDITION.
func (s *Store) put(ctx context.Context, key string, sp *spool, rec *record, cond string) error {
	opts := minio.PutObjectOptions{ContentType: httpContentType(rec.ContentType), UserMetadata: rec.metadata(),
		DisableContentSha256: true}
	switch cond {
	case "":
	case "*":
		opts.SetMatchETagExcept("*")
	default:
		opts.SetMatchETag(cond)
	}
	_, err := s.core.PutObject(ctx, s.bucket, key, sp.reader(), sp.size, base64.StdEncoding.EncodeToString(sp.md5),
		hex.EncodeToString(sp.sha256), opts)
	if err == nil {
		return nil
	}
	if isPrecondition(err) && ctx.Err() == nil {
		return cairn.Errorf(cairn.EPRECONDITION, "the name's object changed")
	}
	return s.fail(ctx, "writing a blob", err)
}

// spool holds the content of one Put, in memory or in a temporary file,
// with its digests.
type spool struct {
	mem    []byte
	file   *os.File
	size   int64
	sha256 []byte
	md5    []byte
}

// spool reads r to its end, checking ctx between reads.
func (s *Store) spool(ctx context.Context, r io.Reader) (_ *spool, err error) {
	sp := &spool{}
	defer func() {
		if err != nil {
			sp.close()
		}
	}()
	sh, mh := sha256.New(), md5.New()
	buf := make([]byte, 64<<10)
	var w io.Writer = &memWriter{sp}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		n, rerr := r.Read(buf)
		if n > 0 {
			if sp.size+int64(n) > MaxBlobSize {
				return nil, cairn.Errorf(cairn.ETOOLARGE, "blob larger than the %d bytes the blob store takes", int64(MaxBlobSize))
			}
			if sp.file == nil && sp.size+int64(n) > memSpool {
				if err := sp.toFile(s.tempDir); err != nil {
					return nil, err
				}
				w = sp.file
			}
			if _, err := w.Write(buf[:n]); err != nil {
				return nil, fmt.Errorf("s3: spooling blob content: %w", err)
			}
			sh.Write(buf[:n])
			mh.Write(buf[:n])
			sp.size += int64(n)
		}
		if rerr == io.EOF {
			break
		} else if rerr != nil {
			return nil, fmt.Errorf("s3: reading blob content: %w", rerr)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sp.sha256, sp.md5 = sum(sh), sum(mh)
	return sp, nil
}

func sum(h hash.Hash) []byte { return h.Sum(nil) }

type memWriter struct{ sp *spool }

func (w *memWriter) Write(p []byte) (int, error) {
	w.sp.mem = append(w.sp.mem, p...)
	return len(p), nil
}

// toFile moves the spool from memory to a new temporary file.
func (sp *spool) toFile(dir string) error {
	f, err := os.CreateTemp(dir, "cairn-s3-put-*")
	if err != nil {
		return fmt.Errorf("s3: spooling blob content: %w", err)
	}
	sp.file = f
	// Unlinked at once where the system allows it: a crash leaves nothing.
	_ = os.Remove(f.Name())
	if _, err := f.Write(sp.mem); err != nil {
		return fmt.Errorf("s3: spooling blob content: %w", err)
	}
	sp.mem = nil
	return nil
}

// reader returns a new reader over the whole content.
func (sp *spool) reader() io.ReadSeeker {
	if sp.file != nil {
		return io.NewSectionReader(sp.file, 0, sp.size)
	}
	return bytes.NewReader(sp.mem)
}

// chunkSums returns the SHA-256 of every chunk of size cs, concatenated.
func (sp *spool) chunkSums(cs int64) ([]byte, error) {
	r := sp.reader()
	out := make([]byte, 0, (sp.size+cs-1)/cs*sha256.Size)
	h := sha256.New()
	for off := int64(0); off < sp.size; off += cs {
		h.Reset()
		if _, err := io.CopyN(h, r, min(cs, sp.size-off)); err != nil {
			return nil, err
		}
		out = h.Sum(out)
	}
	return out, nil
}

// close closes (and removes) the temporary file, if any.
func (sp *spool) close() {
	if sp.file != nil {
		sp.file.Close()
		_ = os.Remove(sp.file.Name())
		sp.file = nil
	}
}
