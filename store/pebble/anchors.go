package pebble

import (
	"context"
	"encoding/binary"
	"math"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

var _ store.Anchors = (*DB)(nil)

func anchorPrefix(target string) []byte { return key(prefixAnchor, target) }

func anchorKey(target string, version uint64) []byte {
	return binary.BigEndian.AppendUint64(anchorPrefix(target), version)
}

// CreateAnchor writes a's record unless the target has one of its version
// or a newer one.
func (db *DB) CreateAnchor(ctx context.Context, a cairn.Anchor) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if a.Target == "" || a.ListVersion == 0 {
		return cairn.Errorf(cairn.EINVALID, "An anchor needs a target and a list version.")
	}
	db.anchorMu.Lock()
	defer db.anchorMu.Unlock()
	last, err := store.LatestAnchor(ctx, db, a.Target)
	if err == nil && last.ListVersion >= a.ListVersion {
		return cairn.Errorf(cairn.ECONFLICT, "List version %d is not newer than the anchored version %d.", a.ListVersion, last.ListVersion)
	} else if err != nil && !cairn.IsCode(err, cairn.ENOTFOUND) {
		return err
	}
	if a.CreatedAt.IsZero() {
		a.CreatedAt = db.clock.Now().UTC()
	}
	b := db.db.NewBatch()
	defer b.Close()
	if err := setJSON(b, anchorKey(a.Target, a.ListVersion), &a); err != nil {
		return err
	}
	return db.commit(b)
}

// UpdateAnchor is a read-modify-write under the anchor lock.
func (db *DB) UpdateAnchor(ctx context.Context, target string, version uint64, fn func(*cairn.Anchor) error) (cairn.Anchor, error) {
	if err := ctx.Err(); err != nil {
		return cairn.Anchor{}, err
	}
	db.anchorMu.Lock()
	defer db.anchorMu.Unlock()
	var a cairn.Anchor
	k := anchorKey(target, version)
	if ok, err := db.getJSON(k, &a); err != nil {
		return cairn.Anchor{}, err
	} else if !ok {
		return cairn.Anchor{}, cairn.Errorf(cairn.ENOTFOUND, "No anchor of list version %d.", version)
	}
	if err := fn(&a); err != nil {
		return cairn.Anchor{}, err
	}
	a.Target, a.ListVersion = target, version
	b := db.db.NewBatch()
	defer b.Close()
	if err := setJSON(b, k, &a); err != nil {
		return cairn.Anchor{}, err
	}
	return a, db.commit(b)
}

// ListAnchors scans the target's records backwards from before.
func (db *DB) ListAnchors(ctx context.Context, target string, before uint64, limit int) ([]cairn.Anchor, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if before == 0 {
		before = math.MaxUint64
	}
	return lastFirst[cairn.Anchor](ctx, db, anchorPrefix(target), anchorKey(target, before), limit, nil, nil)
}
