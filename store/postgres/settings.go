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
