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
// entries it listed, skipping offset and returning up to limit; both
// tables are scanned (neither is indexed by version).
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
	}, `SELECT listed, family, address, source, entity_id, entity_name, category, severity
		FROM (
			SELECT 0 AS ord, listed, family, address, source, entity_id, entity_name, category, severity
			FROM list_history WHERE version = $1
			UNION ALL
			SELECT 1, true, family, address, source, entity_id, entity_name, category, severity
			FROM list_entries WHERE since = $1
		) c
		ORDER BY ord, family, address, listed DESC, source, entity_id
		OFFSET $2 LIMIT $3`, int64(v), offset, limit)
}
