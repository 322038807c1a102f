package pebble

import (
	"context"
	"encoding/json"
	"fmt"

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
	out := []cairn.AuditEntry{}
	if limit <= 0 {
		return out, nil
	}
	lower := auditPrefix(agentID)
	if f.Action != "" {
		lower = auditActPrefix(agentID, f.Action)
	}
	upper := prefixEnd(lower)
	if beforeID != "" {
		upper = appendComponent(append([]byte(nil), lower...), beforeID)
	}
	it, err := db.db.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: upper})
	if err != nil {
		return nil, fmt.Errorf("pebble: iterate audit: %w", err)
	}
	defer it.Close()
	for ok := it.Last(); ok && len(out) < limit; ok = it.Prev() {
		var e cairn.AuditEntry
		if f.Action == "" {
			val, err := it.ValueAndErr()
			if err != nil {
				return nil, fmt.Errorf("pebble: read audit: %w", err)
			}
			if err := json.Unmarshal(val, &e); err != nil {
				return nil, fmt.Errorf("pebble: decode audit entry: %w", err)
			}
		} else {
			id, _, err := readComponent(it.Key()[len(lower):])
			if err != nil {
				return nil, err
			}
			if ok, err := db.getJSON(auditKey(agentID, id), &e); err != nil {
				return nil, err
			} else if !ok {
				continue // index entry without its record: not written by this package
			}
		}
		out = append(out, e)
	}
	if err := it.Error(); err != nil {
		return nil, fmt.Errorf("pebble: iterate audit: %w", err)
	}
	return out, nil
}
