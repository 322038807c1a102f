package postgres

import (
	"context"
	"sync"
	"time"

	"github.com/cairn-dev/cairn"
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
	return db.charges.interval > 0 && isCharge(e)
}

// isCharge reports whether e is a charge that may be grouped or deferred:
// negative, of kind charge, without a unique key.
func isCharge(e *cairn.LedgerEntry) bool {
	return e.Kind == cairn.LedgerCharge && e.Amount < 0 && e.UniqueKey == ""
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
