package pebble

import (
	"context"

	"github.com/cairn-dev/cairn"
)

// Setting returns the stored value of the named setting.
func (db *DB) Setting(ctx context.Context, name string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	v, err := db.getBytes(settingKey(name))
	if err != nil {
		return nil, err
	} else if v == nil {
		return nil, cairn.Errorf(cairn.ENOTFOUND, "Setting %q not found.", name)
	}
	return v, nil
}

// PutSetting stores the value in one synced write.
func (db *DB) PutSetting(ctx context.Context, name string, value []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if name == "" {
		return cairn.Errorf(cairn.EINVALID, "Missing setting name.")
	}
	b := db.db.NewBatch()
	defer b.Close()
	if err := b.Set(settingKey(name), value, nil); err != nil {
		return err
	}
	return db.commit(b)
}

// PutSettingIfAbsent stores the value unless the setting exists, under
// the lock of the store's global records, in one synced write.
func (db *DB) PutSettingIfAbsent(ctx context.Context, name string, value []byte) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if name == "" {
		return nil, cairn.Errorf(cairn.EINVALID, "Missing setting name.")
	}
	db.idx.Lock()
	defer db.idx.Unlock()
	v, err := db.getBytes(settingKey(name))
	if err != nil || v != nil {
		return v, err
	}
	if value == nil {
		value = []byte{}
	}
	b := db.db.NewBatch()
	defer b.Close()
	if err := b.Set(settingKey(name), value, nil); err != nil {
		return nil, err
	}
	if err := db.commit(b); err != nil {
		return nil, err
	}
	return value, nil
}
