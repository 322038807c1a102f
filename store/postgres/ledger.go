package postgres

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/jackc/pgx/v5"
)

// querier is what a pool and a transaction share.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// sqlApply moves the balance and appends the entry in one statement: the
// UPDATE takes the developer's row lock, checks the balance and assigns the
// next seq; the INSERT writes the entry with them. No row comes back when
// the developer is unknown or the balance does not cover the amount, and a
// unique key already used aborts the whole statement.
const sqlApply = `WITH d AS (
	UPDATE developers SET balance = balance + $2, ledger_seq = ledger_seq + 1
	WHERE id = $1 AND balance + $2 >= 0
	RETURNING ledger_seq, balance
)
INSERT INTO ledger (developer_id, seq, id, agent_id, kind, operation, amount, balance_after,
	request_id, ref_id, reason, unique_key, created_at, origin)
SELECT $1, d.ledger_seq, $3, $4, $5, $6, $2, d.balance, $7, $8, $9, $10, $11, $12 FROM d
RETURNING seq, balance_after`

// sqlCharge is sqlApply whose commit does not wait for the WAL flush
// (synchronous_commit off for its transaction only; charges.go).
var sqlCharge = strings.Replace(sqlApply, "FROM d\n", "FROM d, (SELECT "+asyncCommitExpr+") AS async\n", 1)

// Apply appends e to its developer's ledger and moves the balance in one
// statement (see sqlApply); when that statement refuses, the developer's
// row is locked to tell an unknown developer from a short balance, and the
// entry is applied after all if a concurrent credit made room. ID and
// CreatedAt are assigned when empty; Seq and BalanceAfter are always the
// store's.
//
// A charge may instead be deferred (deferred_charges.go): accepted in
// memory and applied with the account's others within ChargeDefer, its Seq
// and BalanceAfter left 0. Any other entry first applies the account's
// waiting charges; a refund of a charge the database refused as unpaid is
// a no-op that succeeds (Seq 0). e is changed only on success.
func (db *DB) Apply(ctx context.Context, e *cairn.LedgerEntry) error {
	if e == nil {
		return cairn.Errorf(cairn.EINVALID, "Missing ledger entry.")
	}
	entry := db.prepareEntry(e)
	if isCharge(&entry) && db.deferCharge(&entry) {
		*e = entry
		return nil
	}
	if err := db.flushDeveloper(ctx, entry.DeveloperID); err != nil {
		return err
	}
	if entry.Kind == cairn.LedgerRefund && entry.RefID != "" && db.deferred.isUnpaid(entry.RefID) {
		*e = entry
		return nil
	}
	sql := sqlApply
	if db.groupsCharge(&entry) {
		sql = sqlCharge
	}
	done := db.deferred.reserve(entry.DeveloperID, entry.Amount)
	ok, err := insertEntry(ctx, db.pool, sql, &entry)
	if ok && sql == sqlCharge {
		db.chargeCommitted()
	}
	if err == nil && !ok {
		err = db.inTx(ctx, func(tx pgx.Tx) error { return applyLocked(ctx, tx, &entry) })
	}
	if err != nil {
		done(0, 0)
		return err
	}
	done(entry.Seq, entry.BalanceAfter)
	*e = entry
	return nil
}

// prepareEntry returns the copy of e to store, with its ID and CreatedAt.
func (db *DB) prepareEntry(e *cairn.LedgerEntry) cairn.LedgerEntry {
	entry := *e
	entry.Seq, entry.BalanceAfter = 0, 0
	if entry.ID == "" {
		entry.ID = cairn.NewID()
	}
	if entry.CreatedAt.IsZero() {
		entry.CreatedAt = db.now()
	} else {
		entry.CreatedAt = dbTime(entry.CreatedAt)
	}
	return entry
}

// insertEntry runs sqlApply for e and sets its Seq and BalanceAfter. It
// reports false, writing nothing, when the statement refused the entry.
func insertEntry(ctx context.Context, q querier, sql string, e *cairn.LedgerEntry) (bool, error) {
	var uniq any
	if e.UniqueKey != "" {
		uniq = e.UniqueKey
	}
	err := q.QueryRow(ctx, sql, e.DeveloperID, e.Amount, e.ID, e.AgentID, e.Kind, e.Operation,
		e.RequestID, e.RefID, e.Reason, uniq, e.CreatedAt, e.Origin).Scan(&e.Seq, &e.BalanceAfter)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	} else if err != nil {
		return false, mapErr(err, "apply ledger entry")
	}
	return true, nil
}

// applyLocked applies e inside tx with the developer's row locked, so the
// answer is exact: ENOTFOUND, EINVALID on overflow, EPAYMENT with the
// balance seen, ECONFLICT for a used unique key, or the entry written.
func applyLocked(ctx context.Context, tx pgx.Tx, e *cairn.LedgerEntry) error {
	var bal int64
	err := tx.QueryRow(ctx, "SELECT balance FROM developers WHERE id = $1 FOR UPDATE", e.DeveloperID).Scan(&bal)
	if errors.Is(err, pgx.ErrNoRows) {
		return cairn.Errorf(cairn.ENOTFOUND, "Developer account not found.")
	} else if err != nil {
		return mapErr(err, "lock developer")
	}
	if (e.Amount > 0 && bal > math.MaxInt64-e.Amount) || (e.Amount < 0 && bal < math.MinInt64-e.Amount) {
		return cairn.Errorf(cairn.EINVALID, "Ledger amount out of range.")
	}
	if bal+e.Amount < 0 {
		return cairn.Errorf(cairn.EPAYMENT,
			"Insufficient credits: %d required, %d available.", -e.Amount, bal).
			With("required", -e.Amount).With("available", bal)
	}
	ok, err := insertEntry(ctx, tx, sqlApply, e)
	if err != nil {
		return err
	} else if !ok {
		return fmt.Errorf("postgres: ledger entry refused with the developer row locked (balance %d, amount %d)", bal, e.Amount)
	}
	return nil
}

const ledgerColumns = `developer_id, seq, id, agent_id, kind, operation, amount, balance_after,
	request_id, ref_id, reason, coalesce(unique_key, ''), created_at, origin`

// Transactions lists the developer's ledger newest first from beforeSeq
// (its deferred charges applied first),
// a backward range scan of the primary key. An unknown developer has an
// empty ledger.
func (db *DB) Transactions(ctx context.Context, developerID string, beforeSeq uint64, limit int) ([]cairn.LedgerEntry, error) {
	out := []cairn.LedgerEntry{}
	if limit <= 0 {
		return out, nil
	}
	if err := db.flushDeveloper(ctx, developerID); err != nil {
		return nil, err
	}
	before := int64(math.MaxInt64)
	if beforeSeq > 0 && beforeSeq < math.MaxInt64 {
		before = int64(beforeSeq)
	}
	return queryRows(ctx, db.pool, "ledger", func(rows pgx.Rows, e *cairn.LedgerEntry) error {
		err := rows.Scan(&e.DeveloperID, &e.Seq, &e.ID, &e.AgentID, &e.Kind, &e.Operation, &e.Amount,
			&e.BalanceAfter, &e.RequestID, &e.RefID, &e.Reason, &e.UniqueKey, &e.CreatedAt, &e.Origin)
		e.CreatedAt = e.CreatedAt.UTC()
		return err
	}, `SELECT `+ledgerColumns+` FROM ledger
		WHERE developer_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3`, developerID, before, limit)
}

// LedgerSince reads the entries from since in time order (every
// account's deferred charges applied first), a range scan of
// ledger_created_at_idx, a page at a time so that fn never runs inside a
// query.
func (db *DB) LedgerSince(ctx context.Context, since time.Time, fn func(e *cairn.LedgerEntry) bool) error {
	if err := db.flushAll(ctx); err != nil {
		return err
	}
	const page = 1000
	at, dev, seq := dbTime(since), "", int64(0)
	for {
		rows, err := db.pool.Query(ctx, `SELECT `+ledgerColumns+` FROM ledger
			WHERE (created_at, developer_id, seq) > ($1, $2, $3) ORDER BY created_at, developer_id, seq LIMIT $4`,
			at, dev, seq, page)
		if err != nil {
			return mapErr(err, "scan ledger")
		}
		var out []cairn.LedgerEntry
		for rows.Next() {
			var e cairn.LedgerEntry
			if err := rows.Scan(&e.DeveloperID, &e.Seq, &e.ID, &e.AgentID, &e.Kind, &e.Operation, &e.Amount,
				&e.BalanceAfter, &e.RequestID, &e.RefID, &e.Reason, &e.UniqueKey, &e.CreatedAt, &e.Origin); err != nil {
				rows.Close()
				return mapErr(err, "read ledger")
			}
			e.CreatedAt = e.CreatedAt.UTC()
			out = append(out, e)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return mapErr(err, "scan ledger")
		}
		for i := range out {
			if !fn(&out[i]) {
				return nil
			}
		}
		if len(out) < page {
			return nil
		}
		last := out[len(out)-1]
		at, dev, seq = last.CreatedAt, last.DeveloperID, int64(last.Seq)
	}
}

// LedgerByUniqueKey reads the entry holding the unique key, every
// account's deferred charges applied first.
func (db *DB) LedgerByUniqueKey(ctx context.Context, uk string) (*cairn.LedgerEntry, error) {
	if err := db.flushAll(ctx); err != nil {
		return nil, err
	}
	var e cairn.LedgerEntry
	err := db.pool.QueryRow(ctx, `SELECT `+ledgerColumns+` FROM ledger WHERE unique_key = $1`, uk).Scan(
		&e.DeveloperID, &e.Seq, &e.ID, &e.AgentID, &e.Kind, &e.Operation, &e.Amount,
		&e.BalanceAfter, &e.RequestID, &e.RefID, &e.Reason, &e.UniqueKey, &e.CreatedAt, &e.Origin)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, cairn.Errorf(cairn.ENOTFOUND, "No ledger entry with this key.")
	} else if err != nil {
		return nil, mapErr(err, "ledger entry by unique key")
	}
	return &e, nil
}
