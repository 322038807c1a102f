package memory

import (
	"context"

	"github.com/cairn-dev/cairn"
)

// Delete removes the version with the id (spec 3.1). Deleting the latest
// makes the newest remaining version the latest; deleting an older version
// removes only that version; deleting the only version removes the memory.
// The blob goes after the commit: a crash leaves at most an orphan blob.
// ifMatch, when not nil, must accept the memory's latest version number
// (the If-Match condition), else EPRECONDITION.
func (s *Service) Delete(ctx context.Context, agentID, id string, ifMatch func(latest int) bool, reqID string) (*cairn.Memory, *cairn.MemoryVersion, error) {
	peek, _, err := s.Store.MemoryByVersionID(ctx, agentID, id)
	if err != nil {
		return nil, nil, err
	}
	if peek.Expired(s.now().Now()) {
		return nil, nil, memExpired(peek)
	}
	unlock := s.lock(agentID, peek.Key)
	defer unlock()
	if ifMatch != nil {
		cur, _, err := s.Store.MemoryByVersionID(ctx, agentID, id)
		if err != nil {
			return nil, nil, err
		}
		if !ifMatch(cur.Latest) {
			return nil, nil, preconditionFailed(cur.Latest)
		}
	}
	audit := auditEntry(agentID, cairn.AuditDelete, id, reqID, map[string]any{"key": peek.Key})
	head, gone, err := s.Store.DeleteMemoryVersion(ctx, agentID, id, audit)
	if err != nil {
		return nil, nil, err
	}
	s.deleteBlob(ctx, agentID, gone)
	s.reindex(ctx, peek, head)
	return head, gone, nil
}

// reindex brings the derived state of a memory (full text, key search,
// vectors) in line with its head after the latest version moved (head
// nil: the memory is gone).
func (s *Service) reindex(ctx context.Context, before, head *cairn.Memory) {
	if s.Index == nil && s.Vectors == nil {
		return
	}
	if head == nil {
		s.unindex(before.AgentID, before.Key)
		return
	}
	if head.LatestID == before.LatestID {
		return
	}
	if _, v, err := s.Store.MemoryByVersionID(ctx, head.AgentID, head.LatestID); err == nil {
		s.indexVersion(ctx, head, v, true)
	}
}

// update changes the head of the memory holding version id under its lock,
// moving the blobs' expiry with it: longer before the commit, shorter after.
func (s *Service) update(ctx context.Context, agentID, id string, audit *cairn.AuditEntry, fn func(*cairn.Memory) error) (*cairn.Memory, error) {
	peek, _, err := s.Store.MemoryByVersionID(ctx, agentID, id)
	if err != nil {
		return nil, err
	}
	unlock := s.lock(agentID, peek.Key)
	defer unlock()
	now := s.now().Now()
	old, _, err := s.Store.MemoryByVersionID(ctx, agentID, id)
	if err != nil {
		return nil, err
	}
	if old.Expired(now) {
		return nil, memExpired(old)
	}
	next := *old
	if err := fn(&next); err != nil {
		return nil, err
	}
	next.UpdatedAt = now
	longer := expiresBefore(blobExpiry(old), blobExpiry(&next))
	if longer {
		if err := s.syncBlobExpiry(ctx, &next); err != nil {
			return nil, err
		}
	}
	m, err := s.Store.UpdateMemory(ctx, agentID, old.ID, func(m *cairn.Memory) error {
		m.Pinned, m.Importance, m.ExpiresAt, m.UpdatedAt = next.Pinned, next.Importance, next.ExpiresAt, next.UpdatedAt
		return nil
	}, audit)
	if err != nil {
		return nil, err
	}
	if !longer && !blobExpiry(old).Equal(blobExpiry(m)) {
		_ = s.syncBlobExpiry(ctx, m)
	}
	return m, nil
}

// TogglePin flips the pin of the memory holding version id. A pinned
// memory and its blobs never expire.
func (s *Service) TogglePin(ctx context.Context, agentID, id, reqID string) (*cairn.Memory, error) {
	return s.SetPin(ctx, agentID, id, nil, reqID)
}

// SetPin sets the pin of the memory holding version id to *pinned, which
// a retry cannot undo; nil flips it (TogglePin).
func (s *Service) SetPin(ctx context.Context, agentID, id string, pinned *bool, reqID string) (*cairn.Memory, error) {
	var details map[string]any
	if pinned != nil {
		details = map[string]any{"pinned": *pinned}
	}
	return s.update(ctx, agentID, id, auditEntry(agentID, cairn.AuditPin, id, reqID, details), func(m *cairn.Memory) error {
		if pinned == nil {
			m.Pinned = !m.Pinned
		} else {
			m.Pinned = *pinned
		}
		return nil
	})
}

// SetImportance sets the importance (0 to 1) of the memory.
func (s *Service) SetImportance(ctx context.Context, agentID, id string, importance float64, reqID string) (*cairn.Memory, error) {
	if !(importance >= 0 && importance <= 1) {
		return nil, invalid("importance", "importance must be between 0 and 1.")
	}
	audit := auditEntry(agentID, cairn.AuditImportance, id, reqID, map[string]any{"importance": importance})
	return s.update(ctx, agentID, id, audit, func(m *cairn.Memory) error {
		m.Importance = importance
		return nil
	})
}
