package memory

import (
	"context"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

// NewVersion makes version N+1 of the memory that holds version id (any of
// its versions), N being the latest. The body may change, besides the
// content: importance, metadata, expiresIn (counted from now), mimeType,
// the encryption fields and the custom blob name; type and key may be
// given only with their current values. ifMatch, when not nil,
// must accept N (the If-Match condition), else EPRECONDITION.
func (s *Service) NewVersion(ctx context.Context, agentID, id string, ifMatch func(latest int) bool, w *Write) (*View, error) {
	peek, _, err := s.Store.MemoryByVersionID(ctx, agentID, id)
	if err != nil {
		return nil, err
	}
	unlock := s.lock(agentID, peek.Key)
	defer unlock()
	old, _, err := s.Store.MemoryByVersionID(ctx, agentID, id)
	if err != nil {
		return nil, err
	}
	now := s.now().Now()
	if old.Expired(now) {
		return nil, memNotFound()
	}
	if (w.Type != "" && w.Type != old.Type) || (w.Key != "" && w.Key != old.Key) {
		return nil, invalid("key", "type and key cannot change; create a new memory instead.")
	}
	if ifMatch != nil && !ifMatch(old.Latest) {
		return nil, cairn.Errorf(cairn.EPRECONDITION, "If-Match does not match: the latest version is %d.", old.Latest).With("version", old.Latest)
	}
	m := *old
	m.UpdatedAt = now
	if err := applyMeta(w, &m, now); err != nil {
		return nil, err
	}
	return s.writeVersion(ctx, &m, old, cairn.NewID(), old.Latest+1, w)
}

func memNotFound() error { return cairn.Errorf(cairn.ENOTFOUND, "Memory not found.") }

// expiresBefore reports whether expiry a comes before b (zero: never).
func expiresBefore(a, b time.Time) bool {
	switch {
	case a.IsZero():
		return false
	case b.IsZero():
		return true
	}
	return a.Before(b)
}

// syncBlobExpiry gives every stored version's blob the memory's expiry,
// without rewriting any content.
func (s *Service) syncBlobExpiry(ctx context.Context, m *store.Memory) error {
	vs, err := s.Store.MemoryVersions(ctx, m.AgentID, m.ID)
	if cairn.IsCode(err, cairn.ENOTFOUND) {
		return nil // a new memory: nothing stored yet
	} else if err != nil {
		return err
	}
	for _, v := range vs {
		err := s.Blobs.ExtendExpiry(ctx, blobPath(m.AgentID, v.BlobName), blobExpiry(m))
		if err != nil && !cairn.IsCode(err, cairn.ENOTFOUND) {
			return upstream(err)
		}
	}
	return nil
}
