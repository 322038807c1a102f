package store

import (
	"context"
	"strings"

	"github.com/cairn-dev/cairn"
)

// SplitAudit is one agent's audit log when its entries live in two
// backends: the entries of account changes (register, rotate_key) commit
// with the account records in Accounts (Postgres, say), every other entry
// in Embedded with the records it logs. Appends go to Embedded; listings
// merge both logs by id (ids are UUIDv7 strings, so the merge is by time and
// keeps the "strictly older than beforeID" paging of each).
type SplitAudit struct {
	Embedded Audit
	Accounts Audit
}

// AppendAudit appends e to the embedded log.
func (s SplitAudit) AppendAudit(ctx context.Context, e *cairn.AuditEntry) error {
	return s.Embedded.AppendAudit(ctx, e)
}

// ListAudit returns up to limit entries of both logs, newest first.
func (s SplitAudit) ListAudit(ctx context.Context, agentID string, f AuditFilter, beforeID string, limit int) ([]cairn.AuditEntry, error) {
	a, err := s.Embedded.ListAudit(ctx, agentID, f, beforeID, limit)
	if err != nil {
		return nil, err
	}
	b, err := s.Accounts.ListAudit(ctx, agentID, f, beforeID, limit)
	if err != nil {
		return nil, err
	}
	out := make([]cairn.AuditEntry, 0, min(limit, len(a)+len(b)))
	for len(out) < limit && (len(a) > 0 || len(b) > 0) {
		if len(b) == 0 || len(a) > 0 && strings.Compare(a[0].ID, b[0].ID) > 0 {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return out, nil
}
