package media

import (
	"context"

	"github.com/cairn-dev/cairn"
)

// Renew gives the agent's media file a new time to live counted from now
// (expiresIn, e.g. "30d"), as TTL renewal does for memories: the stored
// blob's expiry is moved directly, without rewriting it, and the record's
// expiresAt with it. A longer expiry reaches the blob before the record,
// a shorter one after it, so that the record never outlives its bytes. A
// pinned file keeps no blob expiry; its record takes the new expiresAt.
func (s *Service) Renew(ctx context.Context, agentID, id, expiresIn, requestID string) (*cairn.Media, error) {
	ttl, err := cairn.ParseTTL(expiresIn)
	if err != nil {
		return nil, cairn.Errorf(cairn.EINVALID, "%s", cairn.ErrorMessage(err)).With("field", "expiresIn")
	}
	m, err := s.Get(ctx, agentID, id)
	if err != nil {
		return nil, err
	}
	exp := s.Clock.Now().Add(ttl)
	longer := m.ExpiresAt.IsZero() || exp.After(m.ExpiresAt)
	if longer && !m.Pinned {
		if err := s.Blobs.ExtendExpiry(ctx, m.StorageName(), exp); err != nil {
			return nil, cairn.Upstream(err, "Renewing the file in the blob store failed.", keepCodes...)
		}
	}
	audit := &cairn.AuditEntry{AgentID: agentID, Action: cairn.AuditWrite, Resource: id,
		Detail: map[string]any{"kind": "media", "renew": expiresIn}, RequestID: requestID, CreatedAt: s.Clock.Now()}
	r, err := s.Store.RenewMedia(ctx, agentID, id, exp, audit)
	s.forget(agentID, id)
	if err != nil {
		return nil, err
	}
	if !longer && !m.Pinned {
		_ = s.Blobs.ExtendExpiry(context.WithoutCancel(ctx), m.StorageName(), exp)
	}
	return r, nil
}
