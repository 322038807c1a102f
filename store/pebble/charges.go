package pebble

import (
	"fmt"
	"hash/maphash"
	"sync"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cockroachdb/pebble/v2"
)

// Charges are buffered. A charge (a negative ledger entry of kind charge
// without a unique key) is checked and numbered against its developer's
// balance as held in memory, which counts every charge accepted so far, and
// joins the buffer; Apply returns at once. The buffer goes to pebble as one
// batch (each entry with its own sequence number and balance move, and the
// developer record as of its newest entry) at the latest DefaultChargeFlush
// after its first charge, as soon as maxBufferedCharges are waiting, and
// before anything that could depend on the charges:
//
//   - every synced commit of this store (db.commit, commitUnlock, the
//     screening commits): what a charge pays for is stored after the charge,
//     so it is never durable without it (the WAL is synced in commit order);
//   - every other change of a developer's ledger (Apply of a credit, refund,
//     grant or keyed charge), which then reads the developer from pebble;
//   - every read of a balance or a ledger (Developer, Transactions,
//     LedgerSince, LedgerByUniqueKey), so that a client reads its own
//     charges, and the balance is the sum of the ledger in every read;
//   - Close.
//
// So no balance ever goes below zero (each charge is checked against the
// balance net of the buffered ones, under the developer's stripe), and a
// crash can lose only the newest charges, those still in the buffer, as it
// could already lose the newest unsynced charges in pebble's WAL buffer:
// the loss only ever costs the service, never the client.

// DefaultChargeFlush is the longest a charge waits in the buffer by default.
const DefaultChargeFlush = 5 * time.Millisecond

const (
	// maxBufferedCharges sends the buffer to pebble at once, from the
	// charge that fills it.
	maxBufferedCharges = 512
	// hardMaxBufferedCharges refuses charges while the buffer cannot be
	// written (pebble failing): memory stays bounded.
	hardMaxBufferedCharges = 64 * maxBufferedCharges
)

// chargeBuffer holds the charges accepted and not yet in pebble.
type chargeBuffer struct {
	// flushMu is held by a flush from taking the buffered entries until
	// they are committed, so that whoever flushes next (a synced commit, a
	// reader) waits for them to be in pebble.
	flushMu sync.Mutex

	mu       sync.Mutex
	accts    map[string]*chargeAcct // developer id: balance in memory
	n        int                    // buffered entries
	interval time.Duration          // <= 0: no buffering
	timer    *time.Timer
	armed    bool
	closed   bool
	failed   error // the last flush's error, while entries wait again
}

// chargeAcct is a developer's record as of the newest charge accepted and
// the charges accepted since the last flush. An account leaves the map
// only while none of its charges is buffered or being committed, so a
// developer without one has pebble's record up to date.
type chargeAcct struct {
	dev     cairn.Developer
	entries []cairn.LedgerEntry
}

// stripeIndex is the index of key's stripe in every stripes set.
func (db *DB) stripeIndex(key string) uint64 { return maphash.String(db.seed, key) % nStripes }

func (db *DB) initCharges(interval time.Duration) {
	cb := &db.charges
	cb.interval = interval
	cb.accts = map[string]*chargeAcct{}
	if interval > 0 {
		cb.timer = time.AfterFunc(time.Hour, func() { _ = db.flushCharges() })
		cb.timer.Stop()
	}
}

// applyCharge accepts a charge into the buffer (see above), or commits it
// at once when buffering is off.
func (db *DB) applyCharge(e *cairn.LedgerEntry) error {
	cb := &db.charges
	if cb.interval <= 0 {
		return db.applyNow(e)
	}
	dev := db.lock(&db.devs, e.DeveloperID)
	entry, full, err := db.bufferCharge(e)
	dev.Unlock()
	if err != nil {
		return err
	}
	*e = entry
	if full {
		_ = db.flushCharges() // a failure leaves the entries buffered for the next flush
	}
	return nil
}

// bufferCharge checks e against its developer's balance in memory and
// buffers it. The caller holds the developer's stripe.
func (db *DB) bufferCharge(e *cairn.LedgerEntry) (entry cairn.LedgerEntry, full bool, err error) {
	cb := &db.charges
	cb.mu.Lock()
	defer cb.mu.Unlock()
	if cb.closed {
		return *e, false, cairn.Errorf(cairn.EUNAVAILABLE, "The store is closed.")
	}
	if cb.n >= hardMaxBufferedCharges {
		return *e, false, fmt.Errorf("pebble: %d charges wait to be written: %w", cb.n, cb.failed)
	}
	a := cb.accts[e.DeveloperID]
	if a == nil {
		// No charge of this developer is buffered or being committed, and
		// its stripe keeps every other change of the record out: pebble's
		// record is current.
		var d cairn.Developer
		cb.mu.Unlock()
		ok, err := db.getJSON(devKey(e.DeveloperID), &d)
		cb.mu.Lock()
		if err != nil {
			return *e, false, err
		} else if !ok {
			return *e, false, cairn.Errorf(cairn.ENOTFOUND, "Developer account not found.")
		}
		if cb.closed {
			return *e, false, cairn.Errorf(cairn.EUNAVAILABLE, "The store is closed.")
		}
		a = &chargeAcct{dev: d}
		cb.accts[e.DeveloperID] = a
	}
	entry, err = db.checkEntry(&a.dev, e)
	if err != nil {
		return entry, false, err
	}
	a.entries = append(a.entries, entry)
	a.dev.Balance, a.dev.LedgerSeq = entry.BalanceAfter, entry.Seq
	cb.n++
	if cb.n >= maxBufferedCharges {
		return entry, true, nil
	}
	if !cb.armed {
		cb.armed = true
		cb.timer.Reset(cb.interval)
	}
	return entry, false, nil
}

// flushCharges commits every buffered charge, with its developers' records,
// in one batch without waiting for the sync, and returns once they are in
// pebble (also those a concurrent flush was committing). On failure the
// charges stay buffered and the error is returned.
func (db *DB) flushCharges() error { return db.flush(false) }

// flush is flushCharges; final closes the buffer first, so that no charge
// is accepted after it.
func (db *DB) flush(final bool) error {
	cb := &db.charges
	cb.flushMu.Lock()
	defer cb.flushMu.Unlock()
	cb.mu.Lock()
	if cb.closed {
		cb.mu.Unlock()
		return nil
	}
	if final {
		cb.closed = true
		if cb.timer != nil {
			cb.timer.Stop()
		}
	}
	if cb.n == 0 {
		cb.mu.Unlock()
		return nil
	}
	type taken struct {
		a       *chargeAcct
		dev     cairn.Developer
		entries []cairn.LedgerEntry
	}
	var batch []taken
	for _, a := range cb.accts {
		if len(a.entries) > 0 {
			batch = append(batch, taken{a, a.dev, a.entries})
			a.entries = nil
		}
	}
	n := cb.n
	cb.n, cb.armed = 0, false
	cb.mu.Unlock()

	err := db.commitCharges(func(b *pebble.Batch) error {
		for _, t := range batch {
			for i := range t.entries {
				if err := stageEntryWrites(b, &t.entries[i]); err != nil {
					return err
				}
			}
			if err := setJSON(b, devKey(t.dev.ID), &t.dev); err != nil {
				return err
			}
		}
		return nil
	})

	cb.mu.Lock()
	defer cb.mu.Unlock()
	if err != nil {
		// Put them back before what came meanwhile, and try again later.
		for _, t := range batch {
			t.a.entries = append(t.entries, t.a.entries...)
		}
		cb.n += n
		cb.failed = err
		if !cb.armed && !cb.closed && cb.timer != nil {
			cb.armed = true
			cb.timer.Reset(cb.interval)
		}
		return err
	}
	cb.failed = nil
	for id, a := range cb.accts {
		if len(a.entries) == 0 {
			delete(cb.accts, id) // committed: pebble's record is current
		}
	}
	return nil
}

// commitCharges commits the batch stage fills without waiting for the sync.
func (db *DB) commitCharges(stage func(b *pebble.Batch) error) error {
	b := db.db.NewBatch()
	defer b.Close()
	if err := stage(b); err != nil {
		return err
	}
	if err := b.Commit(pebble.NoSync); err != nil {
		return fmt.Errorf("pebble: commit: %w", err)
	}
	return nil
}

// settleCharges flushes the buffer and forgets the developer's balance in
// memory, before a change of its record that reads it from pebble. The
// caller holds the developer's stripe.
func (db *DB) settleCharges(devID string) error {
	if err := db.flushCharges(); err != nil {
		return err
	}
	cb := &db.charges
	cb.mu.Lock()
	defer cb.mu.Unlock()
	if a := cb.accts[devID]; a != nil && len(a.entries) == 0 {
		delete(cb.accts, devID)
	}
	return nil
}

// closeCharges writes the buffer for the last time: a charge after it is
// refused.
func (db *DB) closeCharges() error {
	if err := db.flush(true); err != nil {
		return fmt.Errorf("pebble: buffered charges lost at close: %w", err)
	}
	return nil
}

// applyNow stages and commits one charge without waiting for the sync (no
// buffering).
func (db *DB) applyNow(e *cairn.LedgerEntry) error {
	defer db.lock(&db.devs, e.DeveloperID).Unlock()
	entry, b, err := db.stageApply(e)
	if err != nil {
		return err
	}
	defer b.Close()
	if err := b.Commit(pebble.NoSync); err != nil {
		return fmt.Errorf("pebble: commit: %w", err)
	}
	*e = entry
	return nil
}
