package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/jackc/pgx/v5"
)

// VersionChanges reads the history rows of version v, then the current
// entries it listed, skipping offset and returning up to limit, in one
// statement (one snapshot). Each part is read in the order of its index
// by version (migration 0017), so a page costs the rows it skips and
// returns: the history rows from offset, then the current entries from
// what offset leaves once the version's history rows are counted (at most
// offset of them), as many as the history rows left of the page.
func (db *DB) VersionChanges(ctx context.Context, v uint64, offset, limit int) ([]cairn.ListChange, error) {
	var builtAt string
	err := db.pool.QueryRow(ctx, `SELECT header->>'builtAt' FROM list_versions WHERE version = $1`, int64(v)).Scan(&builtAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, cairn.Errorf(cairn.ENOTFOUND, "No list version %d.", v)
	} else if err != nil {
		return nil, mapErr(err, "read list version")
	}
	at, err := time.Parse(time.RFC3339Nano, builtAt)
	if err != nil {
		return nil, fmt.Errorf("postgres: list version %d: built at %q: %w", v, builtAt, err)
	}
	return queryRows(ctx, db.pool, "version changes", func(rows pgx.Rows, c *cairn.ListChange) error {
		c.Version, c.At = v, at
		e := &c.Entry
		return rows.Scan(&c.Listed, &e.Family, &e.Address, &e.Source, &e.EntityID, &e.EntityName, &e.Category, &e.Severity)
	}, `WITH h AS (
			SELECT listed, family, address, source, entity_id, entity_name, category, severity
			FROM list_history WHERE version = $1
			ORDER BY family, address, listed DESC, source, entity_id
			OFFSET $2 LIMIT $3
		), skipped AS (
			SELECT count(*) AS n FROM (SELECT FROM list_history WHERE version = $1 LIMIT $2) s
		)
		SELECT listed, family, address, source, entity_id, entity_name, category, severity FROM (
			SELECT 0 AS ord, * FROM h
			UNION ALL
			SELECT 1, * FROM (
				SELECT true, family, address, source, entity_id, entity_name, category, severity
				FROM list_entries WHERE since = $1
				ORDER BY family, address, source, entity_id
				OFFSET $2 - (SELECT n FROM skipped) LIMIT $3 - (SELECT count(*) FROM h)
			) e
		) c
		ORDER BY ord, family, address, listed DESC, source, entity_id`, int64(v), offset, limit)
}
