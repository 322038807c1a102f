package postgres

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cairn-dev/cairn"
	"github.com/jackc/pgx/v5"
)

// rowsQuerier is what a pool and a transaction share to run a query.
type rowsQuerier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// queryJSON runs a query that selects one JSON document per row and
// returns the documents decoded, what naming them in errors.
func queryJSON[T any](ctx context.Context, q rowsQuerier, what, sql string, args ...any) ([]T, error) {
	return queryRows(ctx, q, what, func(rows pgx.Rows, v *T) error {
		var doc []byte
		if err := rows.Scan(&doc); err != nil {
			return mapErr(err, "read "+what)
		}
		if err := json.Unmarshal(doc, v); err != nil {
			return fmt.Errorf("postgres: decode %s: %w", what, err)
		}
		return nil
	}, sql, args...)
}

// queryRows runs a query and returns its rows, each read by scan, what
// naming them in errors.
func queryRows[T any](ctx context.Context, q rowsQuerier, what string, scan func(pgx.Rows, *T) error, sql string, args ...any) ([]T, error) {
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return nil, mapErr(err, "read "+what)
	}
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		var v T
		if err := scan(rows, &v); err != nil {
			return nil, mapErr(err, "read "+what)
		}
		out = append(out, v)
	}
	return out, mapErr(rows.Err(), "read "+what)
}

// newestFirst completes q, a query of records whose ids are UUIDv7 (so by
// time), with its arguments: col = val unless val is "", id < beforeID
// unless beforeID is "", then newest first and at most limit.
func newestFirst(q string, args []any, col, val, beforeID string, limit int) (string, []any) {
	if val != "" {
		args = append(args, val)
		q += fmt.Sprintf(" AND %s = $%d", col, len(args))
	}
	if beforeID != "" {
		args = append(args, beforeID)
		q += fmt.Sprintf(" AND id < $%d", len(args))
	}
	args = append(args, limit)
	return q + fmt.Sprintf(" ORDER BY id DESC LIMIT $%d", len(args)), args
}

// decodeJSON decodes one document of what.
func decodeJSON[T any](doc []byte, what string) (*T, error) {
	var v T
	if err := json.Unmarshal(doc, &v); err != nil {
		return nil, fmt.Errorf("postgres: decode %s: %w", what, err)
	}
	return &v, nil
}

// inTxAudit runs fn in a transaction that also inserts the audit entry
// when it is not nil (prepared as AppendAudit does), and sets *audit to
// the entry written only when the transaction commits.
func (db *DB) inTxAudit(ctx context.Context, audit *cairn.AuditEntry, fn func(pgx.Tx) error) error {
	var e cairn.AuditEntry
	if audit != nil {
		e = db.prepareAudit(audit)
	}
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		if err := fn(tx); err != nil {
			return err
		}
		if audit != nil {
			return insertAudit(ctx, tx, sqlAudit, &e)
		}
		return nil
	})
	if err == nil && audit != nil {
		*audit = e
	}
	return err
}

// listOwned reads the developer's records of table (a record column) by
// id after afterID, at most limit of them, what naming them in errors.
func listOwned[T any](ctx context.Context, db *DB, table, what, developerID, afterID string, limit int) ([]T, error) {
	if !validText(developerID, afterID) {
		return []T{}, nil
	}
	return queryJSON[T](ctx, db.pool, what,
		"SELECT record FROM "+table+" WHERE developer_id = $1 AND id > $2 ORDER BY id LIMIT $3", developerID, afterID, limit)
}

// deleteOwned deletes the developer's row id of table, notFound(id) when
// there is none, what naming it in errors.
func deleteOwned(ctx context.Context, db *DB, table, what, developerID, id string, notFound func(string) error) error {
	if !validText(developerID, id) {
		return notFound(id)
	}
	tag, err := db.pool.Exec(ctx, "DELETE FROM "+table+" WHERE developer_id = $1 AND id = $2", developerID, id)
	if err != nil {
		return mapErr(err, "delete "+what)
	}
	if tag.RowsAffected() == 0 {
		return notFound(id)
	}
	return nil
}

// getOwned reads the developer's record id of table (a record column) with
// q, with the row lock suffix lock, notFound(id) when there is none, what
// naming it in errors.
func getOwned[T any](ctx context.Context, q rowsQuerier, table, what, developerID, id, lock string, notFound func(string) error) (*T, error) {
	if !validText(developerID, id) {
		return nil, notFound(id)
	}
	vs, err := queryJSON[T](ctx, q, what, "SELECT record FROM "+table+" WHERE developer_id = $1 AND id = $2"+lock, developerID, id)
	if err != nil {
		return nil, err
	}
	if len(vs) == 0 {
		return nil, notFound(id)
	}
	return &vs[0], nil
}
