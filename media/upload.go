package media

import (
	"bufio"
	"context"
	"errors"
	"io"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

// File is the file part of an upload.
type File struct {
	Filename string // as the client named it
	MimeType string // as the client declared it; may be empty
	Body     io.Reader
}

// Staged is a file written to the blob store whose record is not created
// yet: Commit creates it, Discard removes the blob. An upload is staged as
// soon as its file arrives so that the bytes go straight from the request
// to the blob store, while form fields sent after the file can still
// change the expiry or refuse the upload.
type Staged struct {
	s          *Service
	m          cairn.Media
	blobExpiry time.Time
	done       bool
}

// errTooLarge is the error of a file over MaxFileSize.
var errTooLarge = cairn.Errorf(cairn.ETOOLARGE, "The file exceeds %d bytes.", MaxFileSize).With("limit", MaxFileSize)

// bodyReader counts the file's bytes, stops past MaxFileSize and keeps the
// first read error, which is the client's, not the blob store's.
type bodyReader struct {
	r   io.Reader
	n   int64
	err error
}

func (b *bodyReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.n += int64(n)
	if b.n > MaxFileSize {
		err = errTooLarge
	}
	if err != nil && err != io.EOF && b.err == nil {
		b.err = err
	}
	return n, err
}

// Stage writes the file to the blob store under a fresh blob name, with
// the expiry the options known so far give, and returns it uncommitted.
// When the blob store fails, the blob is deleted (see dropBlob): the store
// may have kept it although the Put failed.
func (s *Service) Stage(ctx context.Context, agentID string, f File, o Options) (*Staged, error) {
	ttl, err := o.TTL()
	if err != nil {
		return nil, err
	}
	body := &bodyReader{r: f.Body}
	br := bufio.NewReaderSize(body, 512)
	head, _ := br.Peek(512)
	now := s.Clock.Now()
	st := &Staged{s: s, m: cairn.Media{ID: cairn.NewID(), AgentID: agentID, Filename: SanitizeFilename(f.Filename),
		MimeType: DetectMIME(f.MimeType, head), CreatedAt: now}}
	st.m.Category = Category(st.m.MimeType)
	st.m.BlobName = BlobName(st.m.Category, st.m.Filename, st.m.MimeType)
	st.m.BlobKey = StorageKey(agentID, st.m.ID)
	st.blobExpiry = o.blobExpiry(now, ttl)
	info, err := s.Blobs.Put(ctx, st.m.BlobKey, br, blob.PutOptions{ContentType: st.m.MimeType, ExpiresAt: st.blobExpiry})
	if err != nil {
		var ce *cairn.Error
		switch {
		case body.err == nil:
			// The store failed, and may have kept the object all the same
			// (its answer lost on the way): delete it, at once unless the
			// store just said it is unreachable.
			s.dropBlob(ctx, agentID, st.m.ID, st.m.StorageName(), !cairn.IsCode(err, cairn.EUNAVAILABLE))
			return nil, cairn.Upstream(err, "Writing the file to the storage network failed.", keepCodes...)
		case errors.As(body.err, &ce):
			return nil, ce
		default:
			return nil, cairn.Errorf(cairn.EINVALID, "The file could not be read from the request body.").With("field", "file")
		}
	}
	st.m.SizeBytes, st.m.SHA256 = info.Size, info.SHA256
	return st, nil
}

// Commit creates the record with the final options, and its audit entry in
// the same commit. It adjusts the blob's expiry when fields sent after the
// file changed it. On failure the blob is removed.
func (st *Staged) Commit(ctx context.Context, o Options) (*cairn.Media, error) {
	if st.done {
		return nil, errors.New("media: staged upload committed twice")
	}
	ttl, err := o.TTL()
	if err != nil {
		st.Discard(ctx)
		return nil, err
	}
	m := st.m
	m.Title, m.Description, m.Metadata, m.Pinned = o.Title, o.Description, o.Metadata, o.Pinned
	m.ExpiresAt = m.CreatedAt.Add(ttl)
	if exp := o.blobExpiry(m.CreatedAt, ttl); !exp.Equal(st.blobExpiry) {
		if err := st.s.Blobs.ExtendExpiry(ctx, m.StorageName(), exp); err != nil {
			st.discard(ctx, err)
			return nil, cairn.Upstream(err, "Writing the file to the storage network failed.", keepCodes...)
		}
	}
	audit := &cairn.AuditEntry{AgentID: m.AgentID, Action: cairn.AuditUpload, Resource: m.ID,
		Detail:    map[string]any{"kind": "media", "blobName": m.BlobName, "sizeBytes": m.SizeBytes},
		RequestID: o.RequestID, CreatedAt: m.CreatedAt}
	if err := st.s.Store.CreateMedia(ctx, &m, audit); err != nil {
		st.discard(ctx, err)
		return nil, err
	}
	st.done = true
	return &m, nil
}

// Discard removes the staged blob; it does nothing after Commit. A delete
// the stores cannot do now is retried in the background (dropBlob).
func (st *Staged) Discard(ctx context.Context) { st.discard(ctx, nil) }

// discard is Discard after err: the delete waits for the background when
// err says a store is unreachable, as trying it now would only wait for
// the same failure.
func (st *Staged) discard(ctx context.Context, err error) {
	if st.done {
		return
	}
	st.done = true
	st.s.dropBlob(ctx, st.m.AgentID, st.m.ID, st.m.StorageName(), !cairn.IsCode(err, cairn.EUNAVAILABLE))
}

// Upload stores a file with its options in one call: Stage, then Commit.
func (s *Service) Upload(ctx context.Context, agentID string, f File, o Options) (*cairn.Media, error) {
	st, err := s.Stage(ctx, agentID, f, o)
	if err != nil {
		return nil, err
	}
	return st.Commit(ctx, o)
}
