package pebble

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cockroachdb/pebble/v2"
)

// Apply appends e to its developer's ledger and moves the balance in one
// synced batch. Seq and BalanceAfter are always the store's; ID and
// CreatedAt are assigned when empty. e is changed only on success.
//
// The developer's stripe is held until the batch is in the memtable, not
// until the WAL sync: the next entry of the same developer then joins the
// same group commit (see commitUnlock). A charge without a unique key is
// buffered and written with the other charges (charges.go); any other entry
// writes the buffer first and then reads the balance from pebble.
func (db *DB) Apply(ctx context.Context, e *cairn.LedgerEntry) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if e == nil {
		return cairn.Errorf(cairn.EINVALID, "Missing ledger entry.")
	}
	if e.Kind == cairn.LedgerCharge && e.Amount < 0 && e.UniqueKey == "" {
		return db.applyCharge(e) // buffered (charges.go)
	}
	var uniq *stripe
	if e.UniqueKey != "" {
		uniq = db.lock(&db.uniqs, e.UniqueKey)
	}
	dev := db.lock(&db.devs, e.DeveloperID)
	unlock := func() {
		dev.Unlock()
		if uniq != nil {
			uniq.Unlock()
		}
	}
	if err := db.settleCharges(e.DeveloperID); err != nil {
		unlock()
		return err
	}
	entry, b, err := db.stageApply(e)
	if err != nil {
		unlock()
		return err
	}
	defer b.Close()
	if entry.Kind == cairn.LedgerCharge && entry.Amount < 0 {
		// A charge does not wait for the WAL sync. A crash can lose only
		// the newest unsynced charges, each with its own balance move
		// (balance = sum of the ledger still holds), and a lost charge only
		// ever costs the service: the client paid nothing for a request the
		// crash cut short. Everything a charge pays for that is stored later
		// in this store (a memory write, a refund, a grant) is committed
		// with a sync after it, and the WAL is synced in commit order, so
		// that write is never durable without its charge.
		err := b.Commit(pebble.NoSync)
		unlock()
		if err != nil {
			return fmt.Errorf("pebble: commit: %w", err)
		}
		*e = entry
		return nil
	}
	if err := db.commitUnlock(b, unlock); err != nil {
		return err
	}
	*e = entry
	return nil
}

// stageApply reads e's developer and returns the batch that applies e.
func (db *DB) stageApply(e *cairn.LedgerEntry) (cairn.LedgerEntry, *pebble.Batch, error) {
	var dev cairn.Developer
	if ok, err := db.getJSON(devKey(e.DeveloperID), &dev); err != nil {
		return *e, nil, err
	} else if !ok {
		return *e, nil, cairn.Errorf(cairn.ENOTFOUND, "Developer account not found.")
	}
	b := db.db.NewBatch()
	entry, err := db.stageEntry(b, &dev, e)
	if err == nil {
		err = setJSON(b, devKey(dev.ID), &dev)
	}
	if err != nil {
		b.Close()
		return entry, nil, err
	}
	return entry, b, nil
}

// stageEntry checks e against dev, stages it in b and moves dev's balance
// and sequence. It returns the entry as stored. The caller holds the
// developer's stripe and, when e has a UniqueKey, that key's stripe, and
// stages dev itself.
func (db *DB) stageEntry(b *pebble.Batch, dev *cairn.Developer, e *cairn.LedgerEntry) (cairn.LedgerEntry, error) {
	entry, err := db.checkEntry(dev, e)
	if err != nil {
		return entry, err
	}
	if err := stageEntryWrites(b, &entry); err != nil {
		return entry, err
	}
	dev.Balance = entry.BalanceAfter
	dev.LedgerSeq = entry.Seq
	return entry, nil
}

// checkEntry checks e against dev and returns the entry to store, with its
// sequence number, balance after, ID and time; dev is not changed.
func (db *DB) checkEntry(dev *cairn.Developer, e *cairn.LedgerEntry) (cairn.LedgerEntry, error) {
	entry := *e
	if entry.DeveloperID != dev.ID {
		return entry, cairn.Errorf(cairn.EINVALID, "Ledger entry names another developer.")
	}
	if entry.UniqueKey != "" {
		if taken, err := db.has(uniqueKey(entry.UniqueKey)); err != nil {
			return entry, err
		} else if taken {
			return entry, cairn.Errorf(cairn.ECONFLICT, "This ledger entry was already recorded.")
		}
	}
	if (entry.Amount > 0 && dev.Balance > math.MaxInt64-entry.Amount) ||
		(entry.Amount < 0 && dev.Balance < math.MinInt64-entry.Amount) {
		return entry, cairn.Errorf(cairn.EINVALID, "Ledger amount out of range.")
	}
	after := dev.Balance + entry.Amount
	if after < 0 {
		return entry, cairn.Errorf(cairn.EPAYMENT,
			"Insufficient credits: %d required, %d available.", -entry.Amount, dev.Balance).
			With("required", -entry.Amount).With("available", dev.Balance)
	}
	entry.Seq = dev.LedgerSeq + 1
	entry.BalanceAfter = after
	if entry.ID == "" {
		entry.ID = cairn.NewID()
	}
	if entry.CreatedAt.IsZero() {
		entry.CreatedAt = db.clock.Now()
	}
	return entry, nil
}

// stageEntryWrites stages the keys of a checked entry in b: the entry, its
// time index and its unique key.
func stageEntryWrites(b *pebble.Batch, entry *cairn.LedgerEntry) error {
	if err := setJSON(b, ledgerKey(entry.DeveloperID, entry.Seq), entry); err != nil {
		return err
	}
	if err := b.Set(ledgerTimeKey(entry), nil, nil); err != nil {
		return err
	}
	if entry.UniqueKey != "" {
		ref := fmt.Appendf(nil, "%s/%d", entry.DeveloperID, entry.Seq)
		if err := b.Set(uniqueKey(entry.UniqueKey), ref, nil); err != nil {
			return err
		}
	}
	return nil
}

// Transactions lists the developer's ledger newest first with a reverse
// seek from beforeSeq. An unknown developer has an empty ledger.
func (db *DB) Transactions(ctx context.Context, developerID string, beforeSeq uint64, limit int) ([]cairn.LedgerEntry, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := db.flushCharges(); err != nil { // the client's own charges are read too
		return nil, err
	}
	lower := ledgerPrefix(developerID)
	upper := prefixEnd(lower)
	if beforeSeq > 0 {
		upper = ledgerKey(developerID, beforeSeq)
	}
	return lastFirst[cairn.LedgerEntry](ctx, db, lower, upper, limit, nil, nil)
}

// LedgerSince scans the time index from since and reads each entry it
// names. Entries written before the index existed are not in it.
func (db *DB) LedgerSince(ctx context.Context, since time.Time, fn func(e *cairn.LedgerEntry) bool) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := db.flushCharges(); err != nil { // the client's own charges are read too
		return err
	}
	lower := []byte(prefixLedgerTime)
	if ns := since.UnixNano(); ns > 0 {
		lower = binary.BigEndian.AppendUint64(lower, uint64(ns))
	}
	return forEach(ctx, db.db, lower, prefixEnd([]byte(prefixLedgerTime)), func(k, _ []byte) error {
		rest := k[len(prefixLedgerTime):]
		if len(rest) < 8+8 {
			return fmt.Errorf("pebble: short ledger time key")
		}
		dev, rest, err := readComponent(rest[8:])
		if err != nil || len(rest) != 8 {
			return fmt.Errorf("pebble: bad ledger time key: %v", err)
		}
		var e cairn.LedgerEntry
		if ok, err := db.getJSON(ledgerKey(dev, binary.BigEndian.Uint64(rest)), &e); err != nil || !ok {
			return err
		}
		if !fn(&e) {
			return errStop
		}
		return nil
	})
}

// LedgerByUniqueKey follows the unique key's index entry to the ledger
// entry that used it.
func (db *DB) LedgerByUniqueKey(ctx context.Context, uk string) (*cairn.LedgerEntry, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := db.flushCharges(); err != nil { // the client's own charges are read too
		return nil, err
	}
	ref, err := db.getBytes(uniqueKey(uk))
	if err != nil {
		return nil, err
	}
	dev, seqText, ok := strings.Cut(string(ref), "/")
	seq, perr := strconv.ParseUint(seqText, 10, 64)
	if ref == nil || !ok || perr != nil {
		return nil, cairn.Errorf(cairn.ENOTFOUND, "No ledger entry with this key.")
	}
	return getRecord[cairn.LedgerEntry](db, ledgerKey(dev, seq), func() error { return cairn.Errorf(cairn.ENOTFOUND, "No ledger entry with this key.") })
}
