package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/jackc/pgx/v5"
)

// CreateAccount inserts the developer, its first agent and, when grant is
// not nil, the starter grant in one transaction. The developer's balance
// and ledger sequence come from the grant alone; the caller's values are
// ignored. dev, agent and grant are changed only on success.
func (db *DB) CreateAccount(ctx context.Context, dev *cairn.Developer, agent *cairn.Agent, grant *cairn.LedgerEntry) error {
	a, err := db.newAgentRow(store.CheckNewAccount(dev, agent))
	if err != nil {
		return err
	}
	var g cairn.LedgerEntry
	if grant != nil {
		if g, err = db.entryFor(grant, dev.ID); err != nil {
			return err
		}
	}
	d := *dev
	d.Balance, d.LedgerSeq = 0, 0
	d.CreatedAt = db.stamp(d.CreatedAt)

	err = db.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "INSERT INTO developers (id, created_at) VALUES ($1, $2)", d.ID, d.CreatedAt); err != nil {
			return mapErr(err, "insert developer")
		}
		if err := insertAgent(ctx, tx, &a); err != nil {
			return err
		}
		if grant == nil {
			return nil
		}
		if err := applyLocked(ctx, tx, &g); err != nil {
			return err
		}
		d.Balance, d.LedgerSeq = g.BalanceAfter, g.Seq
		return nil
	})
	if err != nil {
		return err
	}
	*dev, *agent = d, a
	if grant != nil {
		*grant = g
		db.deferred.observe(d.ID, d.LedgerSeq, d.Balance)
	}
	return nil
}

// EnsureDeveloper returns the developer, creating it with a zero balance
// when it does not exist. Concurrent calls create one account.
func (db *DB) EnsureDeveloper(ctx context.Context, id string) (*cairn.Developer, error) {
	if id == "" {
		return nil, cairn.Errorf(cairn.EINVALID, "Missing developer id.")
	}
	d, err := db.Developer(ctx, id)
	if !cairn.IsCode(err, cairn.ENOTFOUND) {
		return d, err
	}
	if _, err := db.pool.Exec(ctx, "INSERT INTO developers (id, created_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING",
		id, db.now()); err != nil {
		return nil, mapErr(err, "insert developer")
	}
	return db.Developer(ctx, id) // ours, or the one a concurrent call created
}

// CreateAgent inserts the agent in one transaction that holds the
// developer's row. agent is changed only on success.
func (db *DB) CreateAgent(ctx context.Context, agent *cairn.Agent) error {
	a, err := db.newAgentRow(store.CheckAddedAgent(agent))
	if err != nil {
		return err
	}
	const lock = "FOR KEY SHARE" // the agent's foreign key needs no more
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		var one int
		err := tx.QueryRow(ctx, "SELECT 1 FROM developers WHERE id = $1 "+lock, a.DeveloperID).Scan(&one)
		if errors.Is(err, pgx.ErrNoRows) {
			return cairn.Errorf(cairn.ENOTFOUND, "Developer account not found.")
		} else if err != nil {
			return mapErr(err, "lock developer")
		}
		return insertAgent(ctx, tx, &a)
	})
	if err != nil {
		return err
	}
	*agent = a
	return nil
}

// entryFor returns the copy of e to store on developer devID's ledger.
func (db *DB) entryFor(e *cairn.LedgerEntry, devID string) (cairn.LedgerEntry, error) {
	entry := db.prepareEntry(e)
	if entry.DeveloperID == "" {
		entry.DeveloperID = devID
	}
	if entry.DeveloperID != devID {
		return entry, cairn.Errorf(cairn.EINVALID, "Ledger entry names another developer.")
	}
	return entry, nil
}

// stamp returns t as stored, or the clock's time when t is zero.
func (db *DB) stamp(t time.Time) time.Time {
	if t.IsZero() {
		return db.now()
	}
	return dbTime(t)
}

// newAgentRow is the agent a store check returned (unless it failed), its
// times as the database keeps them.
func (db *DB) newAgentRow(a cairn.Agent, err error) (cairn.Agent, error) {
	if err != nil {
		return a, err
	}
	a.CreatedAt = db.stamp(a.CreatedAt)
	normalizeAgentTimes(&a)
	return a, nil
}

// insertAgent inserts a; the unique indexes turn a taken id, key hash or
// deposit index into ECONFLICT.
func insertAgent(ctx context.Context, tx pgx.Tx, a *cairn.Agent) error {
	_, err := tx.Exec(ctx, `INSERT INTO agents (id, developer_id, name, key_hash, secret_hash, revoked,
		revoked_at, deposit_index, deposit_address, created_at, rotated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
		a.ID, a.DeveloperID, a.Name, a.KeyHash, nullBytes(a.SecretHash), a.Revoked,
		nullTime(a.RevokedAt), int64(a.DepositIndex), a.DepositAddress, a.CreatedAt, nullTime(a.RotatedAt))
	return mapErr(err, "insert agent")
}
