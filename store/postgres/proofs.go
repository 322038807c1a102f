package postgres

import (
	"context"
	"errors"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/jackc/pgx/v5"
)

var _ store.Proofs = (*DB)(nil)

// PutProof inserts the document; the primary key makes a second write of
// an id ECONFLICT. Concurrent commits share WAL flushes (PostgreSQL's own
// group commit).
func (db *DB) PutProof(ctx context.Context, id string, doc []byte) error {
	if id == "" {
		return cairn.Errorf(cairn.EINVALID, "A proof needs an id.")
	}
	_, err := db.pool.Exec(ctx, "INSERT INTO proofs (id, doc) VALUES ($1, $2)", id, doc)
	return mapErr(err, "store proof")
}

// PutNewProof is PutProof: the insert's primary key check is part of the
// index write PostgreSQL makes in any case, so there is nothing to skip.
func (db *DB) PutNewProof(ctx context.Context, id string, doc []byte) error {
	return db.PutProof(ctx, id, doc)
}

// Proof reads the document stored under id.
func (db *DB) Proof(ctx context.Context, id string) ([]byte, error) {
	var doc []byte
	err := db.pool.QueryRow(ctx, "SELECT doc FROM proofs WHERE id = $1", id).Scan(&doc)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, cairn.Errorf(cairn.ENOTFOUND, "No proof with id %q.", id)
	}
	return doc, mapErr(err, "read proof")
}

// HasProof asks for the id's row without its document.
func (db *DB) HasProof(ctx context.Context, id string) (bool, error) {
	var ok bool
	err := db.pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM proofs WHERE id = $1)", id).Scan(&ok)
	return ok, mapErr(err, "find proof")
}
