package pebble

import (
	"context"

	"github.com/cairn-dev/cairn"
	"github.com/cockroachdb/pebble/v2"
)

// AppendAudit records e in one synced batch, with its action index entry.
func (db *DB) AppendAudit(ctx context.Context, e *cairn.AuditEntry) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if e == nil || e.AgentID == "" {
		return cairn.Errorf(cairn.EINVALID, "Missing agent id.")
	}
	entry := *e
	b := db.db.NewBatch()
	defer b.Close()
	if err := db.stageAudit(b, &entry); err != nil {
		return err
	}
	if err := db.commit(b); err != nil {
		return err
	}
	*e = entry
	return nil
}

// commitAudit stages the audit entry e, when not nil, in b and commits b.
func (db *DB) commitAudit(b *pebble.Batch, e *cairn.AuditEntry) error {
	if e != nil {
		if err := db.stageAudit(b, e); err != nil {
			return err
		}
	}
	return db.commit(b)
}

// stageAudit assigns e's ID and CreatedAt when empty and stages it.
func (db *DB) stageAudit(b *pebble.Batch, e *cairn.AuditEntry) error {
	if e.ID == "" {
		e.ID = cairn.NewID()
	}
	if e.CreatedAt.IsZero() {
		e.CreatedAt = db.clock.Now()
	}
	if err := setJSON(b, auditKey(e.AgentID, e.ID), e); err != nil {
		return err
	}
	return b.Set(auditActKey(e.AgentID, e.Action, e.ID), nil, nil)
}

// ListAudit lists the agent's log newest first with a reverse seek from
// beforeID. With an action filter it walks the action index, so a page
// costs limit point reads whatever the other entries are.
func (db *DB) ListAudit(ctx context.Context, agentID string, f cairn.AuditFilter, beforeID string, limit int) ([]cairn.AuditEntry, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if f.Action == "" {
		lower, upper := pageBounds(auditPrefix(agentID), beforeID)
		return lastFirst[cairn.AuditEntry](ctx, db, lower, upper, limit, nil, nil)
	}
	lower, upper := pageBounds(auditActPrefix(agentID, f.Action), beforeID)
	return lastFirst(ctx, db, lower, upper, limit, func(id string) (*cairn.AuditEntry, error) {
		var e cairn.AuditEntry
		if ok, err := db.getJSON(auditKey(agentID, id), &e); err != nil || !ok {
			return nil, err // no record: an index entry not written by this package
		}
		return &e, nil
	}, nil)
}
