package media

import (
	"context"
	"time"

	"github.com/cairn-dev/cairn"
)

// List returns a page of the agent's unexpired media, newest first, and
// whether more follow.
func (s *Service) List(ctx context.Context, agentID, category, beforeID string, limit int) ([]cairn.Media, bool, error) {
	now := s.Clock.Now()
	out := make([]cairn.Media, 0, limit+1)
	for {
		want := limit + 1 - len(out)
		page, err := s.Store.ListMedia(ctx, agentID, cairn.MediaFilter{Category: category}, beforeID, want)
		if err != nil {
			return nil, false, err
		}
		for _, m := range page {
			if !m.Expired(now) {
				out = append(out, m)
			}
		}
		if len(out) > limit {
			return out[:limit], true, nil
		}
		if len(page) < want {
			return out, false, nil
		}
		beforeID = page[len(page)-1].ID
	}
}

// sweepBatch is how many expired records Sweep handles per store read.
const sweepBatch = 256

// Sweep removes expired, unpinned media: records first, then blobs, so that
// no record ever points at a removed blob.
func (s *Service) Sweep(ctx context.Context, now time.Time) (int, error) {
	n := 0
	for {
		batch, err := s.Store.ExpiredMedia(ctx, now, sweepBatch)
		if err != nil || len(batch) == 0 {
			return n, err
		}
		for _, m := range batch {
			audit := &cairn.AuditEntry{AgentID: m.AgentID, Action: cairn.AuditDelete, Resource: m.ID,
				Detail: map[string]any{"kind": "media", "reason": "expired"}, CreatedAt: now}
			_, err := s.Store.DeleteMedia(ctx, m.AgentID, m.ID, audit)
			s.forget(m.AgentID, m.ID)
			if err != nil && !cairn.IsCode(err, cairn.ENOTFOUND) {
				return n, err
			}
			if err := s.Blobs.Delete(ctx, m.StorageName()); err != nil && !cairn.IsCode(err, cairn.ENOTFOUND) {
				return n, err
			}
			n++
		}
		if len(batch) < sweepBatch {
			return n, nil
		}
	}
}
