package media

import (
	"bufio"
	"context"
	"errors"
	"io"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
	"github.com/cairn-dev/cairn/store"
)

// Limits and defaults (spec 8).
const (
	MaxFileSize = 10 << 20
	DefaultTTL  = "90d"
	MaxTitleLen = 500
	MaxDescLen  = 5000
)

// Service implements the media operations.
type Service struct {
	Store store.Media
	Blobs blob.Store
	Clock cairn.Clock
}

// Upload is a file to store.
type Upload struct {
	Filename    string
	MimeType    string // as declared by the client; may be empty
	Body        io.Reader
	Title       *string
	Description *string
	Pinned      bool
	Metadata    map[string]any
	ExpiresIn   string // "" for DefaultTTL
	RequestID   string
}

// errTooLarge is returned by the size-limited reader.
var errTooLarge = cairn.Errorf(cairn.ETOOLARGE, "The file exceeds %d bytes.", MaxFileSize).With("limit", MaxFileSize)

type limitReader struct {
	r io.Reader
	n int64
}

func (l *limitReader) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	l.n += int64(n)
	if l.n > MaxFileSize {
		return n, errTooLarge
	}
	return n, err
}

// Upload stores a file for the agent: the blob first, then the record and
// its audit entry in one commit; a failed record write removes the blob.
func (s *Service) Upload(ctx context.Context, agentID string, u Upload) (*cairn.Media, error) {
	ttlText := u.ExpiresIn
	if ttlText == "" {
		ttlText = DefaultTTL
	}
	ttl, err := cairn.ParseTTL(ttlText)
	if err != nil {
		return nil, err
	}
	if u.Title != nil && len(*u.Title) > MaxTitleLen || u.Description != nil && len(*u.Description) > MaxDescLen {
		return nil, cairn.Errorf(cairn.EINVALID, "title is limited to %d bytes and description to %d.", MaxTitleLen, MaxDescLen)
	}
	br := bufio.NewReaderSize(u.Body, 512)
	head, _ := br.Peek(512)
	now := s.Clock.Now()
	m := &cairn.Media{
		ID: cairn.NewID(), AgentID: agentID, Filename: SanitizeFilename(u.Filename),
		MimeType: DetectMIME(u.MimeType, head), Title: u.Title, Description: u.Description,
		Metadata: u.Metadata, Pinned: u.Pinned, ExpiresAt: now.Add(ttl), CreatedAt: now,
	}
	m.Category = Category(m.MimeType)
	m.BlobName = BlobName(m.Category, m.Filename, m.MimeType)
	opts := blob.PutOptions{ContentType: m.MimeType}
	if !m.Pinned {
		opts.ExpiresAt = m.ExpiresAt // a pinned file is immune to expiry, in the blob store too
	}
	info, err := s.Blobs.Put(ctx, m.BlobName, &limitReader{r: br}, opts)
	if err != nil {
		if errors.Is(err, errTooLarge) {
			return nil, errTooLarge
		}
		return nil, upstream(err, "Writing the file to the storage network failed.")
	}
	m.SizeBytes, m.SHA256 = info.Size, info.SHA256
	audit := &cairn.AuditEntry{AgentID: agentID, Action: cairn.AuditUpload, Resource: m.ID,
		Detail: map[string]any{"kind": "media", "blobName": m.BlobName, "sizeBytes": m.SizeBytes}, RequestID: u.RequestID, CreatedAt: now}
	if err := s.Store.CreateMedia(ctx, m, audit); err != nil {
		_ = s.Blobs.Delete(context.WithoutCancel(ctx), m.BlobName)
		return nil, err
	}
	return m, nil
}

// upstream turns a blob store failure into EUPSTREAM, keeping codes the
// store already chose for the client (EINVALID, ETOOLARGE...).
func upstream(err error, msg string) error {
	if code := cairn.ErrorCode(err); code != cairn.EINTERNAL && code != cairn.EUPSTREAM {
		return err
	}
	return &cairn.Error{Code: cairn.EUPSTREAM, Message: msg}
}

// Get returns the agent's media; unknown, malformed, another agent's and
// expired ids are all ENOTFOUND.
func (s *Service) Get(ctx context.Context, agentID, id string) (*cairn.Media, error) {
	if !cairn.ValidID(id) {
		return nil, cairn.Errorf(cairn.ENOTFOUND, "Media not found.")
	}
	m, err := s.Store.GetMedia(ctx, agentID, id)
	if err != nil {
		return nil, err
	}
	if m.Expired(s.Clock.Now()) {
		return nil, cairn.Errorf(cairn.ENOTFOUND, "Media not found.")
	}
	return m, nil
}

// Open returns the media record with a seekable reader over its bytes. A
// blob that cannot be read (missing, corrupt, store down) is EUPSTREAM.
func (s *Service) Open(ctx context.Context, agentID, id string) (*cairn.Media, blob.ReadSeekCloser, error) {
	m, err := s.Get(ctx, agentID, id)
	if err != nil {
		return nil, nil, err
	}
	rc, _, err := s.Blobs.Open(ctx, m.BlobName)
	if err != nil {
		if cairn.IsCode(err, cairn.ENOTFOUND) {
			return nil, nil, cairn.Errorf(cairn.EUPSTREAM, "The file is missing from the storage network.")
		}
		return nil, nil, upstream(err, "Reading the file from the storage network failed.")
	}
	return m, rc, nil
}

// Delete removes the record (with its audit entry), then the blob; a blob
// that already expired or vanished is no error.
func (s *Service) Delete(ctx context.Context, agentID, id, requestID string) (*cairn.Media, error) {
	if !cairn.ValidID(id) {
		return nil, cairn.Errorf(cairn.ENOTFOUND, "Media not found.")
	}
	audit := &cairn.AuditEntry{AgentID: agentID, Action: cairn.AuditDelete, Resource: id,
		Detail: map[string]any{"kind": "media"}, RequestID: requestID, CreatedAt: s.Clock.Now()}
	m, err := s.Store.DeleteMedia(ctx, agentID, id, audit)
	if err != nil {
		return nil, err
	}
	// The record is gone, so the delete succeeded. A blob the store could
	// not remove carries the same expiry and the blob sweep removes it then.
	_ = s.Blobs.Delete(context.WithoutCancel(ctx), m.BlobName)
	return m, nil
}
