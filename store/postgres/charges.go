package postgres

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/jackc/pgx/v5"
)

// Charges are grouped, as on the embedded store. A charge (a negative
// ledger entry of kind charge without a unique key) is checked, numbered
// and committed at once, by the same one statement as any entry, so the
// balance it is checked against is the database's, shared by every
// instance; but its commit does not wait for the WAL to reach the disk
// (synchronous_commit off, for that statement only). Within
// DefaultChargeFlush of the first such commit, one synced commit
// (txid_current in a transaction of its own) flushes the WAL up to it, for
// every charge committed meanwhile: one disk flush for all of them. And the
// WAL is flushed in order, so every synced commit after a charge (anything
// the charge pays for, every credit and refund) makes it durable first.
//
// So a crash of the database can lose only the charges of the last few
// milliseconds (those committed after the last flush), never one whose
// paid-for write was stored: the loss only ever costs the service. A crash
// of the process loses nothing the database committed.

// DefaultChargeFlush is the longest a charge's commit waits for a flush.
const DefaultChargeFlush = 5 * time.Millisecond

// chargeFlusher schedules the flush of the charges committed without
// waiting for the disk.
type chargeFlusher struct {
	interval time.Duration // <= 0: charges commit synchronously
	mu       sync.Mutex
	timer    *time.Timer // set while a flush is due
}

// groupsCharge reports whether e is committed without waiting for the
// disk.
func (db *DB) groupsCharge(e *cairn.LedgerEntry) bool {
	return db.charges.interval > 0 && e.Kind == cairn.LedgerCharge && e.Amount < 0 && e.UniqueKey == ""
}

// chargeCommitted schedules a flush within the interval, unless one is
// already due.
func (db *DB) chargeCommitted() {
	c := &db.charges
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.timer == nil {
		c.timer = time.AfterFunc(c.interval, db.flushCharges)
	}
}

// flushCharges flushes the WAL up to now with one synced commit. On a
// failure the database's own WAL writer still flushes them shortly.
func (db *DB) flushCharges() {
	c := &db.charges
	c.mu.Lock()
	c.timer = nil
	c.mu.Unlock()
	if db.closed.Load() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, _ = db.pool.Exec(ctx, "SELECT txid_current()")
}

// closeCharges flushes the charges a flush is due for, before the pool
// closes.
func (db *DB) closeCharges() {
	c := &db.charges
	c.mu.Lock()
	due := c.timer != nil && c.timer.Stop()
	c.timer = nil
	c.mu.Unlock()
	if due {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, _ = db.pool.Exec(ctx, "SELECT txid_current()")
	}
}

// Concurrent charges of one account go together: while a statement of the
// account's charges is in flight, the charges that come queue, and the
// first of them sends them all in the next one, as one movement of the
// developers row (its lock, taken by every charge of the account, is then
// taken once per statement instead of once per charge) and one insert of
// their entries, numbered and balanced in their order. When the balance
// does not cover them all, each is applied on its own (sqlCharge, then
// Apply's locked path), so each is checked exactly as alone.

// chargeQueues holds the lane of each account with a statement of its
// charges in flight.
type chargeQueues struct {
	mu    sync.Mutex
	lanes map[string]*chargeLane // by developer id
}

// chargeLane is an account's: next is the batch filling while a statement
// is in flight, sent by its first charge when that statement is done.
type chargeLane struct {
	next *chargeBatch
}

// chargeBatch is the charges of one statement: turn is closed when its
// first may send it, done once each has its outcome in errs.
type chargeBatch struct {
	entries    []*cairn.LedgerEntry
	errs       []error
	turn, done chan struct{}
}

// sqlChargeBatch applies the charges of $1 in one statement: $2 their total
// (negative), $3 their count, then their ids, agents, operations, amounts,
// request ids, times and origins, in order. No row comes back when the
// balance does not cover the total.
const sqlChargeBatch = `WITH d AS (
	UPDATE developers SET balance = balance + $2, ledger_seq = ledger_seq + $3
	WHERE id = $1 AND balance + $2 >= 0
	RETURNING ledger_seq, balance
), e AS (
	SELECT * FROM unnest($4::text[], $5::text[], $6::text[], $7::bigint[], $8::text[], $9::timestamptz[], $10::text[])
		WITH ORDINALITY AS e(id, agent_id, operation, amount, request_id, created_at, origin, i)
)
INSERT INTO ledger (developer_id, seq, id, agent_id, kind, operation, amount, balance_after,
	request_id, ref_id, reason, unique_key, created_at, origin)
SELECT $1, d.ledger_seq - $3 + e.i, e.id, e.agent_id, $11, e.operation, e.amount,
	d.balance - $2 + sum(e.amount) OVER (ORDER BY e.i), e.request_id, '', '', NULL, e.created_at, e.origin
FROM d, e, (SELECT ` + asyncCommitExpr + `) AS async
RETURNING id, seq, balance_after`

// applyCharge applies e, prepared and grouped (groupsCharge), with the
// account's concurrent charges.
func (db *DB) applyCharge(ctx context.Context, e *cairn.LedgerEntry) error {
	ctx = context.WithoutCancel(ctx) // the statement is others' too
	q := &db.chargeQ
	q.mu.Lock()
	if q.lanes == nil {
		q.lanes = map[string]*chargeLane{}
	}
	lane, busy := q.lanes[e.DeveloperID]
	if !busy { // none in flight: send at once
		lane = &chargeLane{}
		q.lanes[e.DeveloperID] = lane
		q.mu.Unlock()
		b := &chargeBatch{entries: []*cairn.LedgerEntry{e}, errs: []error{nil}, done: make(chan struct{})}
		db.sendCharges(ctx, e.DeveloperID, lane, b)
		return b.errs[0]
	}
	b := lane.next
	first := b == nil
	if first {
		b = &chargeBatch{turn: make(chan struct{}), done: make(chan struct{})}
		lane.next = b
	}
	i := len(b.entries)
	b.entries = append(b.entries, e)
	b.errs = append(b.errs, nil)
	q.mu.Unlock()
	if first {
		<-b.turn
		db.sendCharges(ctx, e.DeveloperID, lane, b)
	} else {
		<-b.done
	}
	return b.errs[i]
}

// sendCharges applies the charges of b, then hands the lane to the batch
// that filled meanwhile, or frees it.
func (db *DB) sendCharges(ctx context.Context, developerID string, lane *chargeLane, b *chargeBatch) {
	db.applyBatch(ctx, b)
	q := &db.chargeQ
	q.mu.Lock()
	next := lane.next
	lane.next = nil // later charges fill a batch after next
	if next == nil {
		delete(q.lanes, developerID)
	}
	q.mu.Unlock()
	close(b.done)
	if next != nil {
		close(next.turn)
	}
}

// applyBatch applies the charges of b, together when the balance covers
// them, else each on its own.
func (db *DB) applyBatch(ctx context.Context, b *chargeBatch) {
	if len(b.entries) > 1 {
		done, err := db.chargeTogether(ctx, b.entries)
		if done {
			db.chargeCommitted()
		}
		if done || err != nil {
			for i := range b.errs {
				b.errs[i] = err
			}
			return
		}
	}
	for i, e := range b.entries {
		ok, err := insertEntry(ctx, db.pool, sqlCharge, e)
		if ok {
			db.chargeCommitted()
		}
		if err == nil && !ok {
			err = db.inTx(ctx, func(tx pgx.Tx) error { return applyLocked(ctx, tx, e) })
		}
		b.errs[i] = err
	}
}

// chargeTogether applies es in one statement: done false and no error
// when it wrote nothing because the balance does not cover them all (or
// their total is out of range).
func (db *DB) chargeTogether(ctx context.Context, es []*cairn.LedgerEntry) (done bool, err error) {
	n := len(es)
	var total int64
	ids, agents, ops, reqs, origins := make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	amounts, times := make([]int64, n), make([]time.Time, n)
	byID := make(map[string]*cairn.LedgerEntry, n)
	for i, e := range es {
		if total < math.MinInt64-e.Amount {
			return false, nil
		}
		total += e.Amount
		ids[i], agents[i], ops[i], reqs[i], origins[i] = e.ID, e.AgentID, e.Operation, e.RequestID, e.Origin
		amounts[i], times[i] = e.Amount, e.CreatedAt
		byID[e.ID] = e
	}
	rows, err := db.pool.Query(ctx, sqlChargeBatch, es[0].DeveloperID, total, n, ids, agents, ops, amounts, reqs, times, origins,
		cairn.LedgerCharge)
	if err != nil {
		return false, mapErr(err, "apply charges")
	}
	defer rows.Close()
	got := 0
	for rows.Next() {
		var id string
		var seq uint64
		var bal int64
		if err := rows.Scan(&id, &seq, &bal); err != nil {
			return false, mapErr(err, "apply charges")
		}
		if e := byID[id]; e != nil {
			e.Seq, e.BalanceAfter = seq, bal
			got++
		}
	}
	if err := rows.Err(); err != nil {
		return false, mapErr(err, "apply charges")
	}
	if got == 0 {
		return false, nil
	}
	if got != n {
		return false, fmt.Errorf("postgres: %d of %d charges applied together", got, n)
	}
	return true, nil
}
