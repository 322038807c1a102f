package postgres

import (
	"context"
	"encoding/json"
	"math"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/jackc/pgx/v5"
)

var (
	_ store.Idempotency = (*DB)(nil)
	_ store.Settled     = (*DB)(nil)
)

// idemRow is an idempotency record ready to store.
type idemRow struct {
	agent, route string
	key          []byte
	expires      int64
	doc          []byte
}

// idemRow checks r, stamps its CreatedAt when zero and encodes it.
func (db *DB) idemRow(r *cairn.IdempotencyRecord) (*idemRow, error) {
	if r.AgentID == "" || r.Route == "" || r.Key == "" || r.ExpiresAt.IsZero() {
		return nil, cairn.Errorf(cairn.EINVALID, "An idempotency record needs an agent, a route, a key and an expiry.")
	}
	if r.CreatedAt.IsZero() {
		r.CreatedAt = db.clock.Now()
	}
	doc, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	return &idemRow{r.AgentID, r.Route, []byte(r.Key), nanos(r.ExpiresAt), doc}, nil
}

// put inserts the record or replaces the one of the same agent, route and
// key.
func (r *idemRow) put(ctx context.Context, tx pgx.Tx) error { return r.stmt().exec(ctx, tx) }

// stmt is put's statement.
func (r *idemRow) stmt() stmt {
	return newStmt("write idempotency record", `INSERT INTO idempotency (agent_id, route, key, expires_ns, record) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (agent_id, route, key) DO UPDATE SET expires_ns = EXCLUDED.expires_ns, record = EXCLUDED.record`,
		r.agent, r.route, r.key, r.expires, r.doc)
}

// PutIdempotency stores r, replacing the record of its agent, route and key.
func (db *DB) PutIdempotency(ctx context.Context, r *cairn.IdempotencyRecord) error {
	row, err := db.idemRow(r)
	if err != nil {
		return err
	}
	return db.inTx(ctx, func(tx pgx.Tx) error { return row.put(ctx, tx) })
}

// Idempotency returns the record unless it expired at now.
func (db *DB) Idempotency(ctx context.Context, agentID, route, k string, now time.Time) (*cairn.IdempotencyRecord, error) {
	none := cairn.Errorf(cairn.ENOTFOUND, "No idempotency record.")
	if !validText(agentID, route) {
		return nil, none
	}
	var doc []byte
	err := db.pool.QueryRow(ctx, "SELECT record FROM idempotency WHERE agent_id = $1 AND route = $2 AND key = $3",
		agentID, route, []byte(k)).Scan(&doc)
	if err != nil {
		return nil, notFound(err, none, "read idempotency record")
	}
	r, err := decodeJSON[cairn.IdempotencyRecord](doc, "idempotency record")
	if err != nil {
		return nil, err
	}
	if !now.Before(r.ExpiresAt) {
		return nil, none
	}
	return r, nil
}

// DeleteExpiredIdempotency removes up to limit records expired at now,
// soonest first, in one statement; a record replaced meanwhile by one that
// expires later is kept (the DELETE checks the expiry of the row it locks).
func (db *DB) DeleteExpiredIdempotency(ctx context.Context, now time.Time, limit int) (int, error) {
	if limit <= 0 {
		return 0, nil
	}
	tag, err := db.pool.Exec(ctx, `DELETE FROM idempotency i USING (
			SELECT agent_id, route, key FROM idempotency WHERE expires_ns <= $1
			ORDER BY expires_ns LIMIT $2 FOR UPDATE SKIP LOCKED) d
		WHERE i.agent_id = d.agent_id AND i.route = d.route AND i.key = d.key AND i.expires_ns <= $1`, nanos(now), limit)
	if err != nil {
		return 0, mapErr(err, "delete idempotency records")
	}
	return int(tag.RowsAffected()), nil
}

// MarkSettled inserts the marks in one statement, after the deferred
// charges (of every account: a mark names no account).
func (db *DB) MarkSettled(ctx context.Context, chargeIDs []string, at time.Time) error {
	if len(chargeIDs) == 0 {
		return nil
	}
	if err := db.flushAll(ctx); err != nil {
		return err
	}
	_, err := db.pool.Exec(ctx, `INSERT INTO settled (at_ns, charge_id) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`,
		nanos(at), chargeIDs)
	return mapErr(err, "mark settled")
}

// SettledSince walks the marks in time order from since, a page at a time.
func (db *DB) SettledSince(ctx context.Context, since time.Time, fn func(chargeID string) bool) error {
	from := nanos(since)
	if since.UnixNano() <= 0 {
		from = math.MinInt64
	}
	type mark struct {
		at int64
		id string
	}
	return walkPages(func(last *mark) ([]mark, error) {
		at, id := int64(math.MinInt64), ""
		if last != nil {
			at, id = last.at, last.id
		}
		return queryRows(ctx, db.pool, "settled marks", func(rows pgx.Rows, m *mark) error { return rows.Scan(&m.at, &m.id) },
			`SELECT at_ns, charge_id FROM settled WHERE at_ns >= $1 AND (at_ns, charge_id) > ($2, $3)
			ORDER BY at_ns, charge_id LIMIT $4`, from, at, id, scanPage)
	}, func(m *mark) bool { return fn(m.id) })
}

// DeleteSettledBefore removes the oldest marks before t, up to limit.
func (db *DB) DeleteSettledBefore(ctx context.Context, t time.Time, limit int) (int, error) {
	if limit <= 0 {
		return 0, nil
	}
	tag, err := db.pool.Exec(ctx, `DELETE FROM settled WHERE (at_ns, charge_id) IN (
		SELECT at_ns, charge_id FROM settled WHERE at_ns < $1 ORDER BY at_ns, charge_id LIMIT $2)`, nanos(t), limit)
	if err != nil {
		return 0, mapErr(err, "delete settled marks")
	}
	return int(tag.RowsAffected()), nil
}
