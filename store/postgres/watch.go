package postgres

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/jackc/pgx/v5"
)

var _ store.Watchlists = (*DB)(nil)

func watchlistNotFound(id string) error {
	return cairn.Errorf(cairn.ENOTFOUND, "Watchlist not found.").With("watchlistId", id)
}

// CreateWatchlist inserts the watchlist and copies its addresses in one
// transaction.
func (db *DB) CreateWatchlist(ctx context.Context, w *cairn.Watchlist, addrs []cairn.WatchedAddress, charge store.Charge) error {
	if w.CreatedAt.IsZero() {
		w.CreatedAt = db.clock.Now()
	}
	w.UpdatedAt = w.CreatedAt
	addrs = store.UniqueWatched(addrs)
	w.Addresses = len(addrs)
	doc, err := json.Marshal(w)
	if err != nil {
		return err
	}
	return db.inTx(ctx, func(tx pgx.Tx) error {
		if err := lockWatched(ctx, tx, w.DeveloperID); err != nil {
			return err
		}
		if err := chargeWatched(ctx, tx, w.DeveloperID, len(addrs), false, charge); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "INSERT INTO watchlists (developer_id, id, record) VALUES ($1, $2, $3)", w.DeveloperID, w.ID, doc); err != nil {
			return mapErr(err, "insert watchlist")
		}
		return copyWatched(ctx, tx, w, addrs)
	})
}

// lockWatched takes the transaction's lock of the developer account's
// watchlists, which every change of them takes on every instance, so
// that a count of its addresses holds until the commit.
func lockWatched(ctx context.Context, tx pgx.Tx, developerID string) error {
	_, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtextextended('watched:' || $1, 0))", developerID)
	return mapErr(err, "lock watchlists")
}

// chargeWatched calls charge (when set and added > 0) with the account's
// count of watched addresses before the change, as tx sees it under
// lockWatched; tx holds added of them already when inTx.
func chargeWatched(ctx context.Context, tx pgx.Tx, developerID string, added int, inTx bool, charge store.Charge) error {
	if charge == nil || added == 0 {
		return nil
	}
	held, err := countWatched(ctx, tx, developerID)
	if err != nil {
		return err
	}
	if inTx {
		held -= added
	}
	return charge(held, added)
}

// countWatched counts the developer's watched addresses.
func countWatched(ctx context.Context, q interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}, developerID string) (int, error) {
	var n int
	err := q.QueryRow(ctx, "SELECT count(*) FROM watched_addresses WHERE developer_id = $1", developerID).Scan(&n)
	return n, mapErr(err, "count watched addresses")
}

// copyWatched copies addresses of w, none of them held yet.
func copyWatched(ctx context.Context, tx pgx.Tx, w *cairn.Watchlist, addrs []cairn.WatchedAddress) error {
	_, err := tx.CopyFrom(ctx, pgx.Identifier{"watched_addresses"}, []string{"watchlist_id", "developer_id", "family", "address", "record"},
		pgx.CopyFromSlice(len(addrs), func(i int) ([]any, error) {
			doc, err := json.Marshal(&addrs[i])
			return []any{w.ID, w.DeveloperID, addrs[i].Family, addrs[i].Address, doc}, err
		}))
	return mapErr(err, "copy watched addresses")
}

// Watchlist reads the developer's watchlist.
func (db *DB) Watchlist(ctx context.Context, developerID, id string) (*cairn.Watchlist, error) {
	return watchlistIn(ctx, db.pool, developerID, id, "")
}

// watchlistIn reads a watchlist with q, with the row lock suffix lock.
func watchlistIn(ctx context.Context, q rowsQuerier, developerID, id, lock string) (*cairn.Watchlist, error) {
	return getOwned[cairn.Watchlist](ctx, q, "watchlists", "watchlist", developerID, id, lock, watchlistNotFound)
}

// ListWatchlists reads the developer's watchlists by id.
func (db *DB) ListWatchlists(ctx context.Context, developerID, afterID string, limit int) ([]cairn.Watchlist, error) {
	return listOwned[cairn.Watchlist](ctx, db, "watchlists", "watchlist", developerID, afterID, limit)
}

// DeleteWatchlist deletes the watchlist; its addresses go with it.
func (db *DB) DeleteWatchlist(ctx context.Context, developerID, id string) error {
	if !validText(developerID, id) {
		return watchlistNotFound(id)
	}
	return db.inTx(ctx, func(tx pgx.Tx) error {
		if err := lockWatched(ctx, tx, developerID); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, "DELETE FROM watchlists WHERE developer_id = $1 AND id = $2", developerID, id)
		if err != nil {
			return mapErr(err, "delete watchlist")
		}
		if tag.RowsAffected() == 0 {
			return watchlistNotFound(id)
		}
		return nil
	})
}

// AddWatchedAddresses inserts the addresses not held yet and counts
// them, in one transaction holding the watchlist's row lock.
func (db *DB) AddWatchedAddresses(ctx context.Context, developerID, id string, addrs []cairn.WatchedAddress, max int, charge store.Charge) (int, error) {
	addrs = store.UniqueWatched(addrs)
	return db.changeWatched(ctx, developerID, id, func(tx pgx.Tx, w *cairn.Watchlist) (int, error) {
		n := 0
		for _, a := range addrs {
			doc, err := json.Marshal(&a)
			if err != nil {
				return 0, err
			}
			tag, err := tx.Exec(ctx, `INSERT INTO watched_addresses (watchlist_id, developer_id, family, address, record)
				VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`, id, developerID, a.Family, a.Address, doc)
			if err != nil {
				return 0, mapErr(err, "insert watched address")
			}
			n += int(tag.RowsAffected())
		}
		return store.AdmitWatched(w, n, max, func(n int) error { return chargeWatched(ctx, tx, developerID, n, true, charge) })
	})
}

// RemoveWatchedAddresses deletes the held addresses and counts them, in
// one transaction holding the watchlist's row lock.
func (db *DB) RemoveWatchedAddresses(ctx context.Context, developerID, id string, addrs []cairn.WatchedAddress) (int, error) {
	addrs = store.UniqueWatched(addrs)
	return db.changeWatched(ctx, developerID, id, func(tx pgx.Tx, w *cairn.Watchlist) (int, error) {
		n := 0
		for _, a := range addrs {
			tag, err := tx.Exec(ctx, "DELETE FROM watched_addresses WHERE watchlist_id = $1 AND family = $2 AND address = $3",
				id, a.Family, a.Address)
			if err != nil {
				return 0, mapErr(err, "delete watched address")
			}
			n -= int(tag.RowsAffected())
		}
		return n, nil
	})
}

// changeWatched runs stage on the watchlist, locked, and stores it with
// its count moved by what stage returns (whose absolute value it returns).
func (db *DB) changeWatched(ctx context.Context, developerID, id string, stage func(pgx.Tx, *cairn.Watchlist) (int, error)) (int, error) {
	n := 0
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		if err := lockWatched(ctx, tx, developerID); err != nil {
			return err
		}
		w, err := watchlistIn(ctx, tx, developerID, id, " FOR UPDATE")
		if err != nil {
			return err
		}
		if n, err = stage(tx, w); err != nil || n == 0 {
			return err
		}
		w.Addresses += n
		w.UpdatedAt = db.clock.Now()
		doc, err := json.Marshal(w)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, "UPDATE watchlists SET record = $3 WHERE developer_id = $1 AND id = $2", developerID, id, doc)
		return mapErr(err, "update watchlist")
	})
	if n < 0 {
		n = -n
	}
	return n, err
}

// WatchedAddresses reads the watchlist's addresses from after.
func (db *DB) WatchedAddresses(ctx context.Context, developerID, id, after string, limit int) ([]cairn.WatchedAddress, error) {
	if _, err := db.Watchlist(ctx, developerID, id); err != nil {
		return nil, err
	}
	fam, addr, _ := strings.Cut(after, "/")
	if !validText(fam, addr) {
		return []cairn.WatchedAddress{}, nil
	}
	return queryJSON[cairn.WatchedAddress](ctx, db.pool, "watched address", `SELECT record FROM watched_addresses
		WHERE watchlist_id = $1 AND (family, address) > ($2, $3) ORDER BY family, address LIMIT $4`, id, fam, addr, limit)
}

// WatchedCount sums the developer's watchlists' counts.
func (db *DB) WatchedCount(ctx context.Context, developerID string) (int, error) {
	return countWatched(ctx, db.pool, developerID)
}

// Alerts reads the developer's alerts, newest first.
func (db *DB) Alerts(ctx context.Context, developerID, beforeID string, limit int) ([]cairn.WatchAlert, error) {
	if limit <= 0 || !validText(developerID, beforeID) {
		return []cairn.WatchAlert{}, nil
	}
	q, args := newestFirst("SELECT record FROM watch_alerts WHERE developer_id = $1", []any{developerID}, "", "", beforeID, limit)
	return queryJSON[cairn.WatchAlert](ctx, db.pool, "alert", q, args...)
}
