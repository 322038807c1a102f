package media

import (
	"context"

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
	rc, _, err := s.Blobs.Open(ctx, m.StorageName())
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
	_ = s.Blobs.Delete(context.WithoutCancel(ctx), m.StorageName())
	return m, nil
}
