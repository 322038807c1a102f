package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/jackc/pgx/v5"
)

var _ store.Compliance = (*DB)(nil)

// CommitListVersion writes a version in one transaction, under a
// transaction-scoped advisory lock that serializes committers (of every
// instance), so that the successor check and the insert of the version row
// cannot interleave. The changes are applied set-wise: removed and added
// entries are copied into temporary tables (COPY) and merged into the
// current entries by a few statements, whatever their number; when there
// is no current entry yet (a first version), added entries are copied
// straight into list_entries. The version row is written last, once the
// number of entries the version lists is known.
func (db *DB) CommitListVersion(ctx context.Context, v cairn.ListVersion, added, removed []cairn.ListEntry) error {
	v.Removed = len(removed)
	added, removed = uniqueEntries(added), uniqueEntries(removed)
	return db.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtextextended('cairn/list_versions', 0))"); err != nil {
			return mapErr(err, "lock list versions")
		}
		var last int64
		if err := tx.QueryRow(ctx, "SELECT COALESCE(max(version), 0) FROM list_versions").Scan(&last); err != nil {
			return mapErr(err, "read list versions")
		}
		if v.Version != uint64(last)+1 {
			return cairn.Errorf(cairn.ECONFLICT, "List version %d does not follow the last version, %d.", v.Version, last)
		}
		applied, err := applyEntries(ctx, tx, v.Version, added, removed)
		if err != nil {
			return err
		}
		v.Added = applied.listed
		doc, err := json.Marshal(&v)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "INSERT INTO list_versions (version, header) VALUES ($1, $2)", int64(v.Version), doc); err != nil {
			return mapErr(err, "insert list version")
		}
		// Delivered at commit, to every process listening on the schema's
		// channel (and, for the release of the change, on the old one).
		for _, ch := range db.listVersionChannels() {
			if _, err := tx.Exec(ctx, "SELECT pg_notify($1, $2)", ch, strconv.FormatUint(v.Version, 10)); err != nil {
				return mapErr(err, "notify list version")
			}
		}
		// The alerts of watched addresses, committed with the version.
		return insertAlerts(ctx, tx, v.Version, db.clock.Now(), applied.added, applied.removed)
	})
}

// appliedEntries is what applyEntries did: the number of entries it
// listed, and the tables holding the entries it listed and those it
// removed ("" for none), which the alerts are matched from; an added entry
// given new details alone is in neither.
type appliedEntries struct {
	listed         int
	added, removed string
}

// applyEntries delists the removed entries and lists the added ones: an
// added entry already current (not removed by this version) gets its new
// details and is not counted as listed.
func applyEntries(ctx context.Context, tx pgx.Tx, version uint64, added, removed []cairn.ListEntry) (appliedEntries, error) {
	var ch appliedEntries
	var empty bool
	if err := tx.QueryRow(ctx, "SELECT NOT EXISTS (SELECT 1 FROM list_entries)").Scan(&empty); err != nil {
		return ch, mapErr(err, "read list entries")
	}
	if len(removed) > 0 {
		if err := removeEntries(ctx, tx, version, removed); err != nil {
			return ch, err
		}
		ch.removed = "list_removed"
	}
	var err error
	switch {
	case len(added) == 0:
	case empty:
		ch.listed, ch.added = len(added), "list_entries"
		err = copyEntries(ctx, tx, "list_entries", added, int64(version))
	default:
		ch.added = "list_added"
		ch.listed, err = addEntries(ctx, tx, version, added)
	}
	return ch, err
}

// entryColumns are the columns of a list entry, in ListEntry's order.
var entryColumns = []string{"family", "address", "source", "entity_id", "entity_name", "programs", "category", "severity"}

// sqlTempEntries creates a temporary table of entries named %s, dropped at
// commit.
const sqlTempEntries = `CREATE TEMP TABLE %s (
	family text COLLATE "C", address text COLLATE "C", source text COLLATE "C", entity_id text COLLATE "C",
	entity_name text, programs text, category text, severity text) ON COMMIT DROP`

// copyEntries copies es into table with COPY; since >= 0 adds the since
// column.
func copyEntries(ctx context.Context, tx pgx.Tx, table string, es []cairn.ListEntry, since int64) error {
	cols := entryColumns
	if since >= 0 {
		cols = append(slices.Clip(cols), "since")
	}
	_, err := tx.CopyFrom(ctx, pgx.Identifier{table}, cols, pgx.CopyFromSlice(len(es), func(i int) ([]any, error) {
		e := &es[i]
		row := []any{e.Family, e.Address, e.Source, e.EntityID, e.EntityName, string(e.Programs), e.Category, e.Severity}
		if since >= 0 {
			row = append(row, since)
		}
		return row, nil
	}))
	return mapErr(err, "copy list entries")
}

// tempEntries creates the temporary table and copies es into it.
func tempEntries(ctx context.Context, tx pgx.Tx, table string, es []cairn.ListEntry) error {
	if _, err := tx.Exec(ctx, fmt.Sprintf(sqlTempEntries, table)); err != nil {
		return mapErr(err, "create "+table)
	}
	return copyEntries(ctx, tx, table, es, -1)
}

// removeEntries writes the history rows of the removed entries (the
// listing and the delisting of a current entry; the delisting alone of
// one that is not current) and deletes them from the current entries.
func removeEntries(ctx context.Context, tx pgx.Tx, version uint64, removed []cairn.ListEntry) error {
	if err := tempEntries(ctx, tx, "list_removed", removed); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO list_history (family, address, version, listed, source, entity_id,
			entity_name, programs, category, severity)
		SELECT e.family, e.address, e.since, true, e.source, e.entity_id, e.entity_name, e.programs, e.category, e.severity
		FROM list_removed r JOIN list_entries e USING (family, address, source, entity_id)
		UNION ALL
		SELECT r.family, r.address, $1, false, r.source, r.entity_id, COALESCE(e.entity_name, r.entity_name),
			COALESCE(e.programs, r.programs, ''), COALESCE(e.category, r.category), COALESCE(e.severity, r.severity)
		FROM list_removed r LEFT JOIN list_entries e USING (family, address, source, entity_id)`,
		int64(version)); err != nil {
		return mapErr(err, "write list history")
	}
	_, err := tx.Exec(ctx, `DELETE FROM list_entries e USING list_removed r
		WHERE e.family = r.family AND e.address = r.address AND e.source = r.source AND e.entity_id = r.entity_id`)
	return mapErr(err, "delete list entries")
}

// addEntries lists the added entries: a new entry since this version, an
// entry already current with its new details and its listing unchanged.
// Those only given new details are then dropped from list_added, which
// keeps the entries this version lists (the alerts are matched from it),
// and it returns their number.
func addEntries(ctx context.Context, tx pgx.Tx, version uint64, added []cairn.ListEntry) (int, error) {
	if err := tempEntries(ctx, tx, "list_added", added); err != nil {
		return 0, err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO list_entries (family, address, source, entity_id, entity_name, programs, category, severity, since)
		SELECT family, address, source, entity_id, entity_name, programs, category, severity, $1 FROM list_added
		ON CONFLICT (family, address, source, entity_id) DO UPDATE
		SET entity_name = excluded.entity_name, programs = excluded.programs, category = excluded.category,
			severity = excluded.severity`,
		int64(version)); err != nil {
		return 0, mapErr(err, "add list entries")
	}
	tag, err := tx.Exec(ctx, `DELETE FROM list_added a USING list_entries e
		WHERE e.family = a.family AND e.address = a.address AND e.source = a.source AND e.entity_id = a.entity_id
			AND e.since <> $1`,
		int64(version))
	if err != nil {
		return 0, mapErr(err, "drop new details from list_added")
	}
	return len(added) - int(tag.RowsAffected()), nil
}

// uniqueEntries returns es sorted by identity, the last of each identity
// kept: copied in key order, the rows go into the index in order.
func uniqueEntries(es []cairn.ListEntry) []cairn.ListEntry {
	if len(es) == 0 {
		return es
	}
	out := slices.Clone(es)
	slices.SortStableFunc(out, cairn.ListEntry.Compare) // COLLATE "C" of the primary key compares bytes too
	w := 0
	for i := range out {
		if w > 0 && out[w-1].Compare(out[i]) == 0 {
			out[w-1] = out[i]
			continue
		}
		out[w] = out[i]
		w++
	}
	return out[:w]
}

// LastListVersion reads the newest version header.
func (db *DB) LastListVersion(ctx context.Context) (cairn.ListVersion, error) {
	var doc []byte
	err := db.pool.QueryRow(ctx, "SELECT header FROM list_versions ORDER BY version DESC LIMIT 1").Scan(&doc)
	if errors.Is(err, pgx.ErrNoRows) {
		return cairn.ListVersion{}, cairn.Errorf(cairn.ENOTFOUND, "No list version.")
	} else if err != nil {
		return cairn.ListVersion{}, mapErr(err, "read list version")
	}
	v, err := decodeJSON[cairn.ListVersion](doc, "list version")
	if err != nil {
		return cairn.ListVersion{}, err
	}
	return *v, nil
}

// ListVersions pages the headers by descending version.
func (db *DB) ListVersions(ctx context.Context, before uint64, limit int) ([]cairn.ListVersion, error) {
	if limit <= 0 {
		return []cairn.ListVersion{}, nil
	}
	if before == 0 || before > maxVersion {
		before = maxVersion
	}
	return queryJSON[cairn.ListVersion](ctx, db.pool, "list version",
		"SELECT header FROM list_versions WHERE version < $1 ORDER BY version DESC LIMIT $2", int64(before), limit)
}

// listScanPage is how many entries ListEntries fetches at a time.
const listScanPage = 4096

// ListEntries reads the current entries through a cursor, in a read-only
// transaction: one consistent snapshot, a page of rows in memory at a
// time.
func (db *DB) ListEntries(ctx context.Context, fn func(cairn.ListEntry) error) error {
	tx, err := db.pool.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		return mapErr(err, "begin")
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	if _, err := tx.Exec(ctx, `DECLARE list_scan NO SCROLL CURSOR FOR
		SELECT family, address, source, entity_id, entity_name, programs, category, severity FROM list_entries
		ORDER BY family, address, source, entity_id`); err != nil {
		return mapErr(err, "scan list entries")
	}
	fetch := fmt.Sprintf("FETCH FORWARD %d FROM list_scan", listScanPage)
	for {
		rows, err := tx.Query(ctx, fetch)
		if err != nil {
			return mapErr(err, "scan list entries")
		}
		n := 0
		for rows.Next() {
			n++
			var e cairn.ListEntry
			if err := rows.Scan(&e.Family, &e.Address, &e.Source, &e.EntityID, &e.EntityName, (*string)(&e.Programs), &e.Category, &e.Severity); err != nil {
				rows.Close()
				return mapErr(err, "read list entry")
			}
			if err := fn(e); err != nil {
				rows.Close()
				return err
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return mapErr(err, "scan list entries")
		}
		if n < listScanPage {
			return nil
		}
	}
}

// AddressHistory reads the address's history rows and the listings of its
// current entries, oldest first; within a version, the rows before the
// current listings, listings before delistings.
func (db *DB) AddressHistory(ctx context.Context, family, address string) ([]cairn.ListChange, error) {
	out := []cairn.ListChange{}
	if !validText(family, address) {
		return out, nil
	}
	rows, err := db.pool.Query(ctx, `SELECT c.version, c.listed, c.source, c.entity_id, c.entity_name, c.programs,
			c.category, c.severity, v.header->>'builtAt'
		FROM (
			SELECT version, listed, source, entity_id, entity_name, programs, category, severity, 0 AS ord
			FROM list_history WHERE family = $1 AND address = $2
			UNION ALL
			SELECT since, true, source, entity_id, entity_name, programs, category, severity, 1
			FROM list_entries WHERE family = $1 AND address = $2
		) c JOIN list_versions v ON v.version = c.version
		ORDER BY c.version, c.ord, c.listed DESC, c.source, c.entity_id`, family, address)
	if err != nil {
		return nil, mapErr(err, "read address history")
	}
	defer rows.Close()
	for rows.Next() {
		c := cairn.ListChange{Entry: cairn.ListEntry{Family: family, Address: address}}
		var version int64
		var at string
		if err := rows.Scan(&version, &c.Listed, &c.Entry.Source, &c.Entry.EntityID, &c.Entry.EntityName, (*string)(&c.Entry.Programs),
			&c.Entry.Category, &c.Entry.Severity, &at); err != nil {
			return nil, mapErr(err, "read address history")
		}
		c.Version = uint64(version)
		if c.At, err = time.Parse(time.RFC3339Nano, at); err != nil {
			return nil, fmt.Errorf("postgres: list version %d: built at %q: %w", version, at, err)
		}
		out = append(out, c)
	}
	return out, mapErr(rows.Err(), "read address history")
}
