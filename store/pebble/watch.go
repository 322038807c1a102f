package pebble

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/cockroachdb/pebble/v2"
)

// Watchlist keys, inside prefixWatch:
//
//	watch/l/<devID><watchlistID>             Watchlist (JSON)
//	watch/a/<watchlistID><family><address>   WatchedAddress (JSON)
//	watch/i/<family><address><watchlistID>   cairn.WatchIndexEntry (JSON): the index list versions are matched through
//	watch/h/<devID><alertID>                 WatchAlert (JSON); ids are UUIDv7, so by time
const (
	watchList  = prefixWatch + "l/"
	watchAddr  = prefixWatch + "a/"
	watchIndex = prefixWatch + "i/"
	watchAlert = prefixWatch + "h/"
)

var _ store.Watchlists = (*DB)(nil)

func watchListKey(dev, id string) []byte             { return key(watchList, dev, id) }
func watchAddrKey(id, family, address string) []byte { return key(watchAddr, id, family, address) }
func watchIndexKey(family, address, id string) []byte {
	return key(watchIndex, family, address, id)
}

// lockWatched serializes the changes of one developer account's
// watchlists (so that a count of its addresses holds until the commit).
func (db *DB) lockWatched(developerID string) *stripe {
	return db.lock(&db.agts, "watch\x00"+developerID)
}

// CreateWatchlist stores the watchlist, its addresses and their index
// entries in one synced batch.
func (db *DB) CreateWatchlist(ctx context.Context, w *cairn.Watchlist, addrs []cairn.WatchedAddress, charge store.Charge) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if w.CreatedAt.IsZero() {
		w.CreatedAt = db.clock.Now()
	}
	w.UpdatedAt = w.CreatedAt
	st := db.lockWatched(w.DeveloperID)
	defer st.Unlock()
	if ok, err := db.has(watchListKey(w.DeveloperID, w.ID)); err != nil || ok {
		return cmpErr(err, cairn.Errorf(cairn.ECONFLICT, "Watchlist %s already exists.", w.ID))
	}
	addrs = store.UniqueWatched(addrs)
	if err := db.charge(ctx, w.DeveloperID, len(addrs), charge); err != nil {
		return err
	}
	b := db.db.NewBatch()
	defer b.Close()
	w.Addresses = len(addrs)
	for _, a := range addrs {
		if err := stageWatched(b, w, a); err != nil {
			return err
		}
	}
	if err := setJSON(b, watchListKey(w.DeveloperID, w.ID), w); err != nil {
		return err
	}
	return db.commit(b)
}

// charge calls charge (when set and added > 0) with the account's count
// of watched addresses; the caller holds lockWatched.
func (db *DB) charge(ctx context.Context, developerID string, added int, charge store.Charge) error {
	if charge == nil || added == 0 {
		return nil
	}
	before, err := db.WatchedCount(ctx, developerID)
	if err != nil {
		return err
	}
	return charge(before, added)
}

// cmpErr returns err when not nil, else other.
func cmpErr(err, other error) error {
	if err != nil {
		return err
	}
	return other
}

// stageWatched stages an address of w and its index entry.
func stageWatched(b *pebble.Batch, w *cairn.Watchlist, a cairn.WatchedAddress) error {
	if err := setJSON(b, watchAddrKey(w.ID, a.Family, a.Address), a); err != nil {
		return err
	}
	return setJSON(b, watchIndexKey(a.Family, a.Address, w.ID), cairn.WatchIndexEntry{DeveloperID: w.DeveloperID, WatchlistID: w.ID, WatchedAddress: a})
}

// Watchlist reads the developer's watchlist.
func (db *DB) Watchlist(ctx context.Context, developerID, id string) (*cairn.Watchlist, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var w cairn.Watchlist
	if ok, err := db.getJSON(watchListKey(developerID, id), &w); err != nil || !ok {
		return nil, cmpErr(err, cairn.Errorf(cairn.ENOTFOUND, "Watchlist not found.").With("watchlistId", id))
	}
	return &w, nil
}

// ListWatchlists scans the developer's watchlists from afterID.
func (db *DB) ListWatchlists(ctx context.Context, developerID, afterID string, limit int) ([]cairn.Watchlist, error) {
	var after []byte
	if afterID != "" {
		after = watchListKey(developerID, afterID)
	}
	return scanAfter[cairn.Watchlist](ctx, db, key(watchList, developerID), after, limit)
}

// scanAfter decodes up to limit values of the keys under prefix that
// sort after the key after (nil: from the first), in key order.
func scanAfter[T any](ctx context.Context, db *DB, prefix, after []byte, limit int) ([]T, error) {
	lower := prefix
	if after != nil {
		lower = prefixEnd(after)
	}
	it, err := db.db.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: prefixEnd(prefix)})
	if err != nil {
		return nil, fmt.Errorf("pebble: iterate: %w", err)
	}
	defer it.Close()
	out := []T{}
	for ok := it.First(); ok && len(out) < limit; ok = it.Next() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var v T
		if err := json.Unmarshal(it.Value(), &v); err != nil {
			return nil, fmt.Errorf("pebble: decode %q: %w", it.Key(), err)
		}
		out = append(out, v)
	}
	return out, it.Error()
}

// DeleteWatchlist deletes the watchlist, its addresses and their index
// entries in one synced batch.
func (db *DB) DeleteWatchlist(ctx context.Context, developerID, id string) error {
	st := db.lockWatched(developerID)
	defer st.Unlock()
	if _, err := db.Watchlist(ctx, developerID, id); err != nil {
		return err
	}
	b := db.db.NewBatch()
	defer b.Close()
	prefix := key(watchAddr, id)
	if err := db.scanJSON(ctx, prefix, func(val []byte) error {
		var a cairn.WatchedAddress
		if err := json.Unmarshal(val, &a); err != nil {
			return err
		}
		return b.Delete(watchIndexKey(a.Family, a.Address, id), nil)
	}); err != nil {
		return err
	}
	_ = b.DeleteRange(prefix, prefixEnd(prefix), nil)
	_ = b.Delete(watchListKey(developerID, id), nil)
	return db.commit(b)
}

// AddWatchedAddresses stages the addresses not held yet and the new
// count in one synced batch.
func (db *DB) AddWatchedAddresses(ctx context.Context, developerID, id string, addrs []cairn.WatchedAddress, max int, charge store.Charge) (int, error) {
	addrs = store.UniqueWatched(addrs)
	return db.changeWatched(ctx, developerID, id, func(b *pebble.Batch, w *cairn.Watchlist) (int, error) {
		n, err := db.eachWatched(id, addrs, false, func(a cairn.WatchedAddress) error { return stageWatched(b, w, a) })
		if err != nil {
			return 0, err
		}
		return store.AdmitWatched(w, n, max, func(n int) error { return db.charge(ctx, developerID, n, charge) })
	})
}

// RemoveWatchedAddresses deletes the held addresses and their index
// entries, with the new count, in one synced batch.
func (db *DB) RemoveWatchedAddresses(ctx context.Context, developerID, id string, addrs []cairn.WatchedAddress) (int, error) {
	addrs = store.UniqueWatched(addrs)
	return db.changeWatched(ctx, developerID, id, func(b *pebble.Batch, w *cairn.Watchlist) (int, error) {
		n, err := db.eachWatched(id, addrs, true, func(a cairn.WatchedAddress) error {
			_ = b.Delete(watchAddrKey(id, a.Family, a.Address), nil)
			return b.Delete(watchIndexKey(a.Family, a.Address, id), nil)
		})
		return -n, err
	})
}

// eachWatched calls stage for each of addrs that watchlist id holds (held)
// or does not hold (!held), and counts them.
func (db *DB) eachWatched(id string, addrs []cairn.WatchedAddress, held bool, stage func(cairn.WatchedAddress) error) (int, error) {
	n := 0
	for _, a := range addrs {
		ok, err := db.has(watchAddrKey(id, a.Family, a.Address))
		if err != nil {
			return 0, err
		}
		if ok != held {
			continue
		}
		if err := stage(a); err != nil {
			return 0, err
		}
		n++
	}
	return n, nil
}

// changeWatched runs stage on the locked watchlist and commits the staged changes with the count moved
// by what stage returns (its absolute value is returned).
func (db *DB) changeWatched(ctx context.Context, developerID, id string, stage func(*pebble.Batch, *cairn.Watchlist) (int, error)) (int, error) {
	st := db.lockWatched(developerID)
	defer st.Unlock()
	w, err := db.Watchlist(ctx, developerID, id)
	if err != nil {
		return 0, err
	}
	b := db.db.NewBatch()
	defer b.Close()
	n, err := stage(b, w)
	if err != nil || n == 0 {
		return 0, err
	}
	w.Addresses += n
	w.UpdatedAt = db.clock.Now()
	if err := setJSON(b, watchListKey(developerID, id), w); err != nil {
		return 0, err
	}
	if n < 0 {
		n = -n
	}
	return n, db.commit(b)
}

// WatchedAddresses scans the watchlist's addresses from after.
func (db *DB) WatchedAddresses(ctx context.Context, developerID, id, after string, limit int) ([]cairn.WatchedAddress, error) {
	if _, err := db.Watchlist(ctx, developerID, id); err != nil {
		return nil, err
	}
	var from []byte
	if after != "" {
		fam, addr, _ := strings.Cut(after, "/")
		from = watchAddrKey(id, fam, addr)
	}
	return scanAfter[cairn.WatchedAddress](ctx, db, key(watchAddr, id), from, limit)
}

// WatchedCount sums the counts of the developer's watchlists.
func (db *DB) WatchedCount(ctx context.Context, developerID string) (int, error) {
	n := 0
	err := db.scanJSON(ctx, key(watchList, developerID), func(val []byte) error {
		var w cairn.Watchlist
		err := json.Unmarshal(val, &w)
		n += w.Addresses
		return err
	})
	return n, err
}

// Alerts scans the developer's alerts backwards from beforeID.
func (db *DB) Alerts(ctx context.Context, developerID, beforeID string, limit int) ([]cairn.WatchAlert, error) {
	lower, upper := pageBounds(key(watchAlert, developerID), beforeID)
	return lastFirst[cairn.WatchAlert](ctx, db, lower, upper, limit, nil, nil)
}
