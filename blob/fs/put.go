package fs

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

// chunkPool holds chunk-sized buffers for writers and readers.
var chunkPool = sync.Pool{New: func() any { b := make([]byte, chunkSize); return &b }}

// Put stores r under name: it creates, or with opts.Replace replaces, the
// blob (blob.Store.Put). The new blob becomes visible only once its content
// and sidecar are durable; whether the name is free is decided at its
// commit, under the name's lock.
// A failure of r is returned wrapped; a done ctx stops the write with ctx's
// error; a failure of the disk is EUPSTREAM. An ExpiresAt in the past stores
// a blob that is already expired.
//
// Content shorter than one chunk goes inline, after the record in the
// sidecar; longer content is streamed into its content file, under its
// final generation name (no sidecar refers to it yet), which is synced with
// its directory entry. Put then writes the sidecar to a temp file, syncs
// it, and waits for the group commit (commit.go), which renames it over the
// sidecar and syncs the directory.
func (s *Store) Put(ctx context.Context, name string, r io.Reader, opts blob.PutOptions) (blob.Info, error) {
	if err := blob.ValidateName(name); err != nil {
		return blob.Info{}, err
	}
	if err := ctx.Err(); err != nil {
		return blob.Info{}, err
	}
	l := s.locate(name)
	gen := newGen()
	p := &pending{l: l, tmpPath: filepath.Join(l.dir, l.key+"."+gen+".meta.tmp"), done: make(chan struct{}),
		name: name, replace: opts.Replace}
	contentPath := l.blobPath(gen)
	s.track(p.tmpPath, true)
	s.track(contentPath, true)
	defer s.track(p.tmpPath, false)
	defer s.track(contentPath, false)
	contentFile := false
	defer func() {
		// Nothing refers to the files of a Put that did not rename its
		// sidecar. A renamed one whose directory sync failed keeps them
		// and reports the error.
		if !p.renamed && !p.halted {
			os.Remove(p.tmpPath)
			if contentFile {
				os.Remove(contentPath)
			}
		}
	}()

	bufp := chunkPool.Get().(*[]byte)
	defer chunkPool.Put(bufp)
	buf := *bufp
	n, rerr := io.ReadFull(r, buf)
	if rerr != nil && rerr != io.EOF && rerr != io.ErrUnexpectedEOF {
		return blob.Info{}, fmt.Errorf("fs: reading blob content: %w", rerr)
	}
	if err := ctx.Err(); err != nil {
		return blob.Info{}, err
	}
	var rec *record
	if rerr != nil {
		rec = inlineRecord(buf[:n])
	} else {
		contentFile = true
		var err error
		if rec, err = writeContent(ctx, contentPath, buf, r); err != nil {
			return blob.Info{}, err
		}
		if err := syncDir(l.dir); err != nil { // its entry, before any sidecar names it
			return blob.Info{}, cairn.Upstream(err, "writing blob failed")
		}
	}
	rec.Name, rec.Gen, rec.ContentType = name, gen, opts.ContentType
	rec.CreatedAt = s.clock.Now().UTC()
	if !opts.ExpiresAt.IsZero() {
		rec.ExpiresAt = opts.ExpiresAt.UTC()
	}
	data, err := rec.encode()
	if err != nil {
		return blob.Info{}, err
	}
	if err := writeFileSync(p.tmpPath, data); err != nil {
		return blob.Info{}, cairn.Upstream(err, "writing blob metadata failed")
	}
	s.commit(p)
	if p.err != nil {
		return blob.Info{}, p.err
	}
	return rec.info(), nil
}

// inlineRecord is the record of content shorter than one chunk, kept in the
// sidecar: its one chunk digest is also the digest of the whole.
func inlineRecord(content []byte) *record {
	sum := sha256.Sum256(content)
	rec := &record{Format: inlineFormat, Size: int64(len(content)), SHA256: hex.EncodeToString(sum[:]),
		ChunkSize: chunkSize, inline: content}
	if len(content) > 0 {
		rec.sums = sum[:]
		rec.Chunks = rec.SHA256
	}
	return rec
}

// writeContent creates the content file at path with first (a whole chunk)
// and the rest of r, fsyncs it, and returns the record of its size and
// digests. buf is first's buffer, reused for the rest.
func writeContent(ctx context.Context, path string, buf []byte, r io.Reader) (*record, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, cairn.Upstream(err, "writing blob failed")
	}
	defer f.Close()
	whole := sha256.New()
	rec := &record{Format: metaFormat, ChunkSize: chunkSize}
	n, rerr := len(buf), error(nil) // the first chunk is already in buf
	for {
		if n > 0 {
			sum := sha256.Sum256(buf[:n])
			rec.sums = append(rec.sums, sum[:]...)
			whole.Write(buf[:n])
			if _, err := f.Write(buf[:n]); err != nil {
				return nil, cairn.Upstream(err, "writing blob failed")
			}
			rec.Size += int64(n)
		}
		if rerr == io.EOF || rerr == io.ErrUnexpectedEOF {
			break
		} else if rerr != nil {
			return nil, fmt.Errorf("fs: reading blob content: %w", rerr)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		n, rerr = io.ReadFull(r, buf)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := f.Sync(); err != nil {
		return nil, cairn.Upstream(err, "writing blob failed")
	}
	if err := f.Close(); err != nil {
		return nil, cairn.Upstream(err, "writing blob failed")
	}
	rec.SHA256 = hex.EncodeToString(whole.Sum(nil))
	rec.Chunks = hex.EncodeToString(rec.sums)
	return rec, nil
}
