package postgres

import (
	"context"
	"errors"

	"github.com/cairn-dev/cairn"
	"github.com/jackc/pgx/v5"
)

// Setting returns the stored value of the named setting.
func (db *DB) Setting(ctx context.Context, name string) ([]byte, error) {
	var v []byte
	err := db.pool.QueryRow(ctx, "SELECT value FROM settings WHERE name = $1", name).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, cairn.Errorf(cairn.ENOTFOUND, "Setting %q not found.", name)
	} else if err != nil {
		return nil, mapErr(err, "read setting")
	}
	if v == nil {
		v = []byte{}
	}
	return v, nil
}

// PutSetting inserts or replaces the value.
func (db *DB) PutSetting(ctx context.Context, name string, value []byte) error {
	if name == "" {
		return cairn.Errorf(cairn.EINVALID, "Missing setting name.")
	}
	if value == nil {
		value = []byte{} // the column is NOT NULL: no value is the empty value
	}
	_, err := db.pool.Exec(ctx, `INSERT INTO settings (name, value) VALUES ($1, $2)
		ON CONFLICT (name) DO UPDATE SET value = excluded.value`, name, value)
	return mapErr(err, "write setting")
}

// PutSettingIfAbsent inserts the value unless the setting exists, then
// reads the stored one: the first of concurrent writers wins.
func (db *DB) PutSettingIfAbsent(ctx context.Context, name string, value []byte) ([]byte, error) {
	if name == "" {
		return nil, cairn.Errorf(cairn.EINVALID, "Missing setting name.")
	}
	if value == nil {
		value = []byte{}
	}
	if _, err := db.pool.Exec(ctx, `INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, name, value); err != nil {
		return nil, mapErr(err, "write setting")
	}
	return db.Setting(ctx, name)
}

// UpdateSetting runs fn on the setting's row locked in one transaction:
// the row is inserted empty when absent (concurrent first updates wait on
// that insert as on the lock of an existing row), read FOR UPDATE, and
// written back with fn's result. Updates from every instance sharing the
// database run one after the other; an error of fn rolls all back.
func (db *DB) UpdateSetting(ctx context.Context, name string, fn func(old []byte) ([]byte, error)) ([]byte, error) {
	if name == "" {
		return nil, cairn.Errorf(cairn.EINVALID, "Missing setting name.")
	}
	var out []byte
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO settings (name, value) VALUES ($1, '') ON CONFLICT (name) DO NOTHING`, name)
		if err != nil {
			return mapErr(err, "write setting")
		}
		var old []byte // nil: this transaction created the row
		if tag.RowsAffected() == 0 {
			if err := tx.QueryRow(ctx, "SELECT value FROM settings WHERE name = $1 FOR UPDATE", name).Scan(&old); err != nil {
				return mapErr(err, "read setting")
			}
			if old == nil {
				old = []byte{}
			}
		}
		v, err := fn(old)
		if err != nil {
			return err
		}
		if v == nil {
			v = []byte{}
		}
		if _, err := tx.Exec(ctx, "UPDATE settings SET value = $2 WHERE name = $1", name, v); err != nil {
			return mapErr(err, "write setting")
		}
		out = v
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
