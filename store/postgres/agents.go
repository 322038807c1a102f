package postgres

import (
	"bytes"
	"context"
	"errors"
	"math"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

const agentColumns = `id, developer_id, name, key_hash, secret_hash, revoked, revoked_at,
	deposit_index, deposit_address, created_at, rotated_at`

// scanAgent reads one row of agentColumns.
func scanAgent(row pgx.Row) (*cairn.Agent, error) {
	var a cairn.Agent
	var revokedAt, rotatedAt pgtype.Timestamptz
	var depIdx int64
	if err := row.Scan(&a.ID, &a.DeveloperID, &a.Name, &a.KeyHash, &a.SecretHash, &a.Revoked, &revokedAt,
		&depIdx, &a.DepositAddress, &a.CreatedAt, &rotatedAt); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return nil, cairn.Errorf(cairn.ENOTFOUND, "Agent not found.")
		}
		return nil, mapErr(err, "read agent")
	}
	a.DepositIndex = uint32(depIdx) // the column's CHECK keeps it in range
	if revokedAt.Valid {
		a.RevokedAt = revokedAt.Time
	}
	if rotatedAt.Valid {
		a.RotatedAt = rotatedAt.Time
	}
	normalizeAgentTimes(&a)
	return &a, nil
}

// normalizeAgentTimes puts a's times in UTC at the precision stored.
func normalizeAgentTimes(a *cairn.Agent) {
	for _, t := range []*time.Time{&a.CreatedAt, &a.RevokedAt, &a.RotatedAt} {
		if !t.IsZero() {
			*t = dbTime(*t)
		}
	}
}

// Developer returns the developer with the id, its deferred charges
// applied first.
func (db *DB) Developer(ctx context.Context, id string) (*cairn.Developer, error) {
	if err := db.flushDeveloper(ctx, id); err != nil {
		return nil, err
	}
	var d cairn.Developer
	err := db.pool.QueryRow(ctx, "SELECT id, balance, ledger_seq, created_at FROM developers WHERE id = $1", id).
		Scan(&d.ID, &d.Balance, &d.LedgerSeq, &d.CreatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, cairn.Errorf(cairn.ENOTFOUND, "Developer account not found.")
	} else if err != nil {
		return nil, mapErr(err, "read developer")
	}
	d.CreatedAt = d.CreatedAt.UTC()
	db.deferred.observe(d.ID, d.LedgerSeq, d.Balance)
	return &d, nil
}

// Agent returns the agent with the id.
func (db *DB) Agent(ctx context.Context, id string) (*cairn.Agent, error) {
	return scanAgent(db.pool.QueryRow(ctx, "SELECT "+agentColumns+" FROM agents WHERE id = $1", id))
}

// AgentByKeyHash returns the agent whose current key hashes to h, one
// lookup in the unique index on key_hash.
func (db *DB) AgentByKeyHash(ctx context.Context, h []byte) (*cairn.Agent, error) {
	if len(h) == 0 {
		return nil, cairn.Errorf(cairn.ENOTFOUND, "Agent not found.")
	}
	return scanAgent(db.pool.QueryRow(ctx, "SELECT "+agentColumns+" FROM agents WHERE key_hash = $1", h))
}

// UpdateAgent runs fn on the agent with its row locked (SELECT ... FOR
// UPDATE) and writes the result and the audit entry in the same
// transaction, only when fn returns nil; fn's error is returned as is. fn
// may not change ID or DeveloperID (EINVALID). A new KeyHash or deposit
// index that another agent holds is ECONFLICT. The key index is the row
// itself, so the old key stops resolving at commit.
func (db *DB) UpdateAgent(ctx context.Context, id string, fn func(*cairn.Agent) error, audit *cairn.AuditEntry) (*cairn.Agent, error) {
	var a cairn.Agent
	var e cairn.AuditEntry
	if audit != nil {
		e = db.prepareAudit(audit)
		if e.AgentID == "" {
			e.AgentID = id
		}
	}
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		old, err := scanAgent(tx.QueryRow(ctx, "SELECT "+agentColumns+" FROM agents WHERE id = $1 FOR UPDATE", id))
		if err != nil {
			return err
		}
		a = *old
		a.KeyHash = bytes.Clone(old.KeyHash)
		a.SecretHash = bytes.Clone(old.SecretHash)
		if err := fn(&a); err != nil {
			return err
		}
		if a.ID != old.ID || a.DeveloperID != old.DeveloperID {
			return cairn.Errorf(cairn.EINVALID, "An agent's id and developer cannot change.")
		}
		if len(a.KeyHash) == 0 {
			return cairn.Errorf(cairn.EINVALID, "Missing API key hash.")
		}
		if a.CreatedAt.IsZero() {
			a.CreatedAt = old.CreatedAt
		}
		normalizeAgentTimes(&a)
		if _, err := tx.Exec(ctx, `UPDATE agents SET name = $2, key_hash = $3, secret_hash = $4, revoked = $5,
			revoked_at = $6, deposit_index = $7, deposit_address = $8, created_at = $9, rotated_at = $10
			WHERE id = $1`,
			a.ID, a.Name, a.KeyHash, nullBytes(a.SecretHash), a.Revoked, nullTime(a.RevokedAt),
			int64(a.DepositIndex), a.DepositAddress, a.CreatedAt, nullTime(a.RotatedAt)); err != nil {
			return mapErr(err, "update agent")
		}
		if audit != nil {
			return insertAudit(ctx, tx, sqlAudit, &e)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if audit != nil {
		*audit = e
	}
	return &a, nil
}

// NextDepositIndex reserves the next deposit index from the deposit_next
// counter row, skipping indexes that an agent already holds. The counter
// moves in the same transaction that reads it, under its row lock, so an
// index is never handed out twice, across processes and restarts.
func (db *DB) NextDepositIndex(ctx context.Context) (uint32, error) {
	var idx int64
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		var next int64
		if err := tx.QueryRow(ctx, "SELECT value FROM counters WHERE name = 'deposit_next' FOR UPDATE").Scan(&next); err != nil {
			return mapErr(err, "lock deposit counter")
		}
		// The smallest free index from next: next itself or one past a
		// held index at or above it.
		if err := tx.QueryRow(ctx, `SELECT min(c.n) FROM (
				SELECT $1::bigint AS n
				UNION ALL
				SELECT deposit_index + 1 FROM agents WHERE deposit_address <> '' AND deposit_index >= $1
			) c
			WHERE NOT EXISTS (SELECT 1 FROM agents a WHERE a.deposit_address <> '' AND a.deposit_index = c.n)`,
			next).Scan(&idx); err != nil {
			return mapErr(err, "find deposit index")
		}
		if idx > math.MaxUint32 {
			return cairn.Errorf(cairn.EUNAVAILABLE, "Deposit indexes exhausted.")
		}
		_, err := tx.Exec(ctx, "UPDATE counters SET value = $1 WHERE name = 'deposit_next'", idx+1)
		return mapErr(err, "move deposit counter")
	})
	if err != nil {
		return 0, err
	}
	return uint32(idx), nil
}
