package memory

import (
	"context"

	"github.com/cairn-dev/cairn"
)

// Log returns up to limit entries of the agent's operation log matching
// action ("" for all), newest first, older than beforeID, and whether more
// follow.
func (s *Service) Log(ctx context.Context, agentID, action, beforeID string, limit int) ([]cairn.AuditEntry, bool, error) {
	es, err := s.Audit.ListAudit(ctx, agentID, cairn.AuditFilter{Action: action}, beforeID, limit+1)
	if err != nil {
		return nil, false, err
	}
	more := len(es) > limit
	if more {
		es = es[:limit]
	}
	return es, more, nil
}

// ViewOf is the view of a listed item.
func ViewOf(it *cairn.MemoryItem) View { return View{Memory: it.Memory, Version: it.Version} }
