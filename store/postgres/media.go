package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/jackc/pgx/v5"
)

var _ store.Media = (*DB)(nil)

// mediaExpiry is the expires_ns of m: NULL when it is never swept.
func mediaExpiry(m *cairn.Media) any {
	if m.Pinned || m.ExpiresAt.IsZero() {
		return nil
	}
	return m.ExpiresAt.UnixNano()
}

// CreateMedia inserts the record and the audit entry in one transaction;
// an id the agent already holds is ECONFLICT (the primary key).
func (db *DB) CreateMedia(ctx context.Context, m *cairn.Media, audit *cairn.AuditEntry) error {
	if !cairn.ValidID(m.ID) || m.AgentID == "" {
		return cairn.Errorf(cairn.EINVALID, "Media needs an id and an agent.")
	}
	rec := *m
	if rec.CreatedAt.IsZero() {
		rec.CreatedAt = db.clock.Now()
	}
	doc, err := json.Marshal(&rec)
	if err != nil {
		return err
	}
	err = db.inTxAudit(ctx, audit, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO media (agent_id, id, category, expires_ns, record) VALUES ($1, $2, $3, $4, $5)`,
			rec.AgentID, rec.ID, rec.Category, mediaExpiry(&rec), doc)
		return mapErr(err, "insert media")
	})
	if err != nil {
		return err
	}
	*m = rec
	return nil
}

// GetMedia reads the agent's record.
func (db *DB) GetMedia(ctx context.Context, agentID, id string) (*cairn.Media, error) {
	if !validText(agentID, id) {
		return nil, store.MediaNotFound()
	}
	var doc []byte
	err := db.pool.QueryRow(ctx, "SELECT record FROM media WHERE agent_id = $1 AND id = $2", agentID, id).Scan(&doc)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, store.MediaNotFound()
	} else if err != nil {
		return nil, mapErr(err, "read media")
	}
	return decodeJSON[cairn.Media](doc, "media")
}

// DeleteMedia deletes the row and writes the audit entry in one
// transaction. Of concurrent deletes, the one whose DELETE finds the row
// wins; the others find none (ENOTFOUND).
func (db *DB) DeleteMedia(ctx context.Context, agentID, id string, audit *cairn.AuditEntry) (*cairn.Media, error) {
	return db.changeMedia(ctx, agentID, id, audit, "DELETE FROM media WHERE agent_id = $1 AND id = $2 RETURNING record", "delete media", nil)
}

// RenewMedia sets the record's expiry (and its expires_ns column, which
// media_expiry_idx covers) with the audit entry in one transaction.
func (db *DB) RenewMedia(ctx context.Context, agentID, id string, expiresAt time.Time, audit *cairn.AuditEntry) (*cairn.Media, error) {
	return db.changeMedia(ctx, agentID, id, audit, "SELECT record FROM media WHERE agent_id = $1 AND id = $2 FOR UPDATE", "read media",
		func(tx pgx.Tx, m *cairn.Media) error {
			m.ExpiresAt = expiresAt
			doc, err := json.Marshal(m)
			if err != nil {
				return err
			}
			_, err = tx.Exec(ctx, "UPDATE media SET expires_ns = $3, record = $4 WHERE agent_id = $1 AND id = $2", agentID, id, mediaExpiry(m), doc)
			return mapErr(err, "renew media")
		})
}

// changeMedia runs q, which reads (locking) or deletes the agent's row id
// and returns its record, then fn with the record when fn is not nil, in
// one transaction with the audit entry; what names q in errors.
func (db *DB) changeMedia(ctx context.Context, agentID, id string, audit *cairn.AuditEntry, q, what string, fn func(pgx.Tx, *cairn.Media) error) (*cairn.Media, error) {
	if !validText(agentID, id) {
		return nil, store.MediaNotFound()
	}
	var m *cairn.Media
	err := db.inTxAudit(ctx, audit, func(tx pgx.Tx) error {
		var doc []byte
		err := tx.QueryRow(ctx, q, agentID, id).Scan(&doc)
		if errors.Is(err, pgx.ErrNoRows) {
			return store.MediaNotFound()
		} else if err != nil {
			return mapErr(err, what)
		}
		if m, err = decodeJSON[cairn.Media](doc, "media"); err != nil || fn == nil {
			return err
		}
		return fn(tx, m)
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// ListMedia pages the agent's records newest first: a backward range scan
// of the primary key or, with a category, of media_category_idx.
func (db *DB) ListMedia(ctx context.Context, agentID string, f cairn.MediaFilter, beforeID string, limit int) ([]cairn.Media, error) {
	out := []cairn.Media{}
	if limit <= 0 || !validText(agentID, f.Category, beforeID) {
		return out, nil
	}
	q, args := newestFirst("SELECT record FROM media WHERE agent_id = $1", []any{agentID}, "category", f.Category, beforeID, limit)
	return queryJSON[cairn.Media](ctx, db.pool, "media", q, args...)
}

// ExpiredMedia reads media_expiry_idx up to now, soonest first.
func (db *DB) ExpiredMedia(ctx context.Context, now time.Time, limit int) ([]cairn.Media, error) {
	if limit <= 0 {
		return []cairn.Media{}, nil
	}
	at := int64(math.MaxInt64)
	if now.Before(time.Unix(0, math.MaxInt64)) {
		at = now.UnixNano()
	}
	return queryJSON[cairn.Media](ctx, db.pool, "media", `SELECT record FROM media WHERE expires_ns IS NOT NULL AND expires_ns <= $1
		ORDER BY expires_ns, agent_id, id LIMIT $2`, at, limit)
}
