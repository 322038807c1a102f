package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/jackc/pgx/v5"
)

// sqlWatchHits joins a table of a version's changes with the watched
// addresses through their (family, address) index.
const sqlWatchHits = `SELECT w.developer_id, w.watchlist_id, w.record,
	c.family, c.address, c.source, c.entity_id, c.entity_name, c.category, c.severity
	FROM %s c JOIN watched_addresses w ON w.family = c.family AND w.address = c.address`

// watchHits returns the changes in table (listed: added) that hit a
// watched address.
func watchHits(ctx context.Context, tx pgx.Tx, table string, listed bool, hits []cairn.WatchHit) ([]cairn.WatchHit, error) {
	rows, err := tx.Query(ctx, fmt.Sprintf(sqlWatchHits, table))
	if err != nil {
		return nil, mapErr(err, "match watched addresses")
	}
	defer rows.Close()
	for rows.Next() {
		h := cairn.WatchHit{Listed: listed}
		var doc []byte
		e := &h.Entry
		if err := rows.Scan(&h.DeveloperID, &h.WatchlistID, &doc, &e.Family, &e.Address, &e.Source, &e.EntityID, &e.EntityName,
			&e.Category, &e.Severity); err != nil {
			return nil, mapErr(err, "match watched addresses")
		}
		if err := json.Unmarshal(doc, &h.WatchedAddress); err != nil {
			return nil, err
		}
		hits = append(hits, h)
	}
	return hits, mapErr(rows.Err(), "match watched addresses")
}

// insertAlerts records the version's alerts of watched addresses: those
// that hit the changes in the added and removed tables ("" for none).
func insertAlerts(ctx context.Context, tx pgx.Tx, version uint64, at time.Time, addedTable, removedTable string) error {
	var hits []cairn.WatchHit
	var err error
	for _, t := range []struct {
		table  string
		listed bool
	}{{addedTable, true}, {removedTable, false}} {
		if t.table != "" {
			if hits, err = watchHits(ctx, tx, t.table, t.listed, hits); err != nil {
				return err
			}
		}
	}
	b := &pgx.Batch{}
	for _, a := range store.BuildAlerts(version, at, hits) {
		doc, err := json.Marshal(&a)
		if err != nil {
			return err
		}
		b.Queue(`INSERT INTO watch_alerts (developer_id, id, watchlist_id, family, address, list_version, change, record)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
			a.DeveloperID, a.ID, a.WatchlistID, a.Family, a.Address, int64(a.ListVersion), a.Change, doc)
	}
	if b.Len() == 0 {
		return nil
	}
	return mapErr(tx.SendBatch(ctx, b).Close(), "insert alerts")
}
