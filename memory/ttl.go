package memory

import (
	"context"
	"time"

	"github.com/cairn-dev/cairn"
)

// Expiring returns the agent's unpinned, not yet expired memories whose
// expiry falls within the window from now, soonest first, at most limit.
func (s *Service) Expiring(ctx context.Context, agentID, typ string, within time.Duration, limit int) ([]cairn.Memory, error) {
	now := s.now().Now()
	ms, err := s.Store.ExpiringMemories(ctx, agentID, now, now.Add(within), typ, limit)
	if err != nil {
		return nil, err
	}
	return ms, nil
}

// Renewal is the outcome of renewing one id.
type Renewal struct {
	ID           string
	Success      bool
	NewExpiresAt time.Time
	Error        string
}

// Renew sets the expiry of each memory (by any version id) to now plus d,
// not the old expiry plus d (spec 3.3), and moves its blobs' expiry with
// it without rewriting them. Each id succeeds or fails on its own.
func (s *Service) Renew(ctx context.Context, agentID string, ids []string, d time.Duration, reqID string) []Renewal {
	out := make([]Renewal, 0, len(ids))
	for _, id := range ids {
		audit := auditEntry(agentID, cairn.AuditWrite, id, reqID, map[string]any{"renew": d.String()})
		m, err := s.update(ctx, agentID, id, audit, func(m *cairn.Memory) error {
			m.ExpiresAt = s.now().Now().Add(d)
			return nil
		})
		if err != nil {
			out = append(out, Renewal{ID: id, Error: cairn.ErrorMessage(err)})
			continue
		}
		out = append(out, Renewal{ID: id, Success: true, NewExpiresAt: m.ExpiresAt})
	}
	return out
}

// Sweep removes the unpinned memories expired at now, with every version
// and blob, and returns how many it removed. It is the memory sweeper of
// the TTL sweep loop.
func (s *Service) Sweep(ctx context.Context, now time.Time) (int, error) {
	n := 0
	for {
		ms, err := s.Store.ExpiredMemories(ctx, now, 256)
		if err != nil || len(ms) == 0 {
			return n, err
		}
		progress := false
		for i := range ms {
			ok, err := s.sweepOne(ctx, &ms[i], now)
			if err != nil {
				return n, err
			}
			if ok {
				n++
				progress = true
			}
		}
		if !progress {
			return n, nil
		}
	}
}

func (s *Service) sweepOne(ctx context.Context, seen *cairn.Memory, now time.Time) (bool, error) {
	unlock := s.lock(seen.AgentID, seen.Key)
	defer unlock()
	m, err := s.Store.MemoryByKey(ctx, seen.AgentID, seen.Key)
	if cairn.IsCode(err, cairn.ENOTFOUND) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	if m.ID != seen.ID || !m.Expired(now) {
		return false, nil // renewed, pinned or replaced meanwhile
	}
	if err := s.removeExpired(ctx, m); err != nil {
		return false, err
	}
	return true, nil
}

// removeExpired removes an expired memory with every version and blob, as
// the sweeper does. The caller holds the memory's lock.
func (s *Service) removeExpired(ctx context.Context, m *cairn.Memory) error {
	vs, err := s.Store.MemoryVersions(ctx, m.AgentID, m.ID)
	if err != nil {
		return err
	}
	for i := len(vs) - 1; i >= 0; i-- { // oldest first: the latest goes last
		audit := auditEntry(m.AgentID, cairn.AuditDelete, vs[i].ID, "", map[string]any{"key": m.Key, "reason": "expired"})
		if _, _, err := s.Store.DeleteMemoryVersion(ctx, m.AgentID, vs[i].ID, audit); err != nil {
			return err
		}
		s.deleteBlob(ctx, m.AgentID, &vs[i])
	}
	s.unindex(m.AgentID, m.Key)
	return nil
}
