package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/jackc/pgx/v5"
)

var _ store.Anchors = (*DB)(nil)

// maxVersion is the largest list version a bigint holds.
const maxVersion = math.MaxInt64

func checkVersion(v uint64) error {
	if v == 0 || v > maxVersion {
		return cairn.Errorf(cairn.EINVALID, "List version %d is out of range.", v)
	}
	return nil
}

// CreateAnchor inserts the record under a transaction-scoped advisory lock
// of the target, so that two creations never both pass the version check.
func (db *DB) CreateAnchor(ctx context.Context, a cairn.Anchor) error {
	if a.Target == "" {
		return cairn.Errorf(cairn.EINVALID, "An anchor needs a target and a list version.")
	}
	if err := checkVersion(a.ListVersion); err != nil {
		return err
	}
	if a.CreatedAt.IsZero() {
		a.CreatedAt = db.now()
	}
	doc, err := json.Marshal(&a)
	if err != nil {
		return err
	}
	return db.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtextextended('cairn/anchors/' || $1, 0))", a.Target); err != nil {
			return mapErr(err, "lock anchors")
		}
		var last int64
		err := tx.QueryRow(ctx, "SELECT COALESCE(max(list_version), 0) FROM anchors WHERE target = $1", a.Target).Scan(&last)
		if err != nil {
			return mapErr(err, "read anchors")
		}
		if uint64(last) >= a.ListVersion {
			return cairn.Errorf(cairn.ECONFLICT, "List version %d is not newer than the anchored version %d.", a.ListVersion, last)
		}
		_, err = tx.Exec(ctx, "INSERT INTO anchors (target, list_version, record) VALUES ($1, $2, $3)", a.Target, int64(a.ListVersion), doc)
		return mapErr(err, "insert anchor")
	})
}

// UpdateAnchor locks the row, runs fn and writes the record back.
func (db *DB) UpdateAnchor(ctx context.Context, target string, version uint64, fn func(*cairn.Anchor) error) (cairn.Anchor, error) {
	if err := checkVersion(version); err != nil {
		return cairn.Anchor{}, cairn.Errorf(cairn.ENOTFOUND, "No anchor of list version %d.", version)
	}
	var out cairn.Anchor
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		var doc []byte
		err := tx.QueryRow(ctx, "SELECT record FROM anchors WHERE target = $1 AND list_version = $2 FOR UPDATE",
			target, int64(version)).Scan(&doc)
		if errors.Is(err, pgx.ErrNoRows) {
			return cairn.Errorf(cairn.ENOTFOUND, "No anchor of list version %d.", version)
		} else if err != nil {
			return mapErr(err, "read anchor")
		}
		var a cairn.Anchor
		if err := json.Unmarshal(doc, &a); err != nil {
			return fmt.Errorf("postgres: decode anchor: %w", err)
		}
		if err := fn(&a); err != nil {
			return err
		}
		a.Target, a.ListVersion = target, version
		if doc, err = json.Marshal(&a); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "UPDATE anchors SET record = $3 WHERE target = $1 AND list_version = $2",
			target, int64(version), doc); err != nil {
			return mapErr(err, "update anchor")
		}
		out = a
		return nil
	})
	return out, err
}

// ListAnchors pages the target's rows by descending version.
func (db *DB) ListAnchors(ctx context.Context, target string, before uint64, limit int) ([]cairn.Anchor, error) {
	if before == 0 || before > maxVersion {
		before = maxVersion
	}
	return queryJSON[cairn.Anchor](ctx, db.pool, "anchors", `SELECT record FROM anchors WHERE target = $1 AND list_version < $2
		ORDER BY list_version DESC LIMIT $3`, target, int64(before), limit)
}
