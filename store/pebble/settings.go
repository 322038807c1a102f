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

// PutSetting stores the value in one synced write, under the settings
// lock so that it never falls between the read and the write of an
// UpdateSetting.
func (db *DB) PutSetting(ctx context.Context, name string, value []byte) error {
	_, err := db.settingLocked(ctx, name, func() ([]byte, error) { return db.putSetting(name, value) })
	return err
}

// PutSettingIfAbsent stores the value unless the setting exists, under
// the settings lock, in one synced write.
func (db *DB) PutSettingIfAbsent(ctx context.Context, name string, value []byte) ([]byte, error) {
	return db.settingLocked(ctx, name, func() ([]byte, error) {
		v, err := db.getBytes(settingKey(name))
		if err != nil || v != nil {
			return v, err
		}
		return db.putSetting(name, value)
	})
}

// UpdateSetting reads the setting, runs fn and writes its result in one
// synced write, all under the settings lock: the one process that opens
// the directory runs concurrent updates one after the other.
func (db *DB) UpdateSetting(ctx context.Context, name string, fn func(old []byte) ([]byte, error)) ([]byte, error) {
	return db.settingLocked(ctx, name, func() ([]byte, error) {
		old, err := db.getBytes(settingKey(name))
		if err != nil {
			return nil, err
		}
		v, err := fn(old)
		if err != nil {
			return nil, err
		}
		return db.putSetting(name, v)
	})
}

// settingLocked checks the context and the name, and runs write under
// settingMu.
func (db *DB) settingLocked(ctx context.Context, name string, write func() ([]byte, error)) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if name == "" {
		return nil, cairn.Errorf(cairn.EINVALID, "Missing setting name.")
	}
	db.settingMu.Lock()
	defer db.settingMu.Unlock()
	return write()
}

// putSetting writes the value (nil: the empty value) in one synced batch
// and returns it; the caller holds settingMu.
func (db *DB) putSetting(name string, value []byte) ([]byte, error) {
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
