package pebble

import (
	"context"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

var _ store.Proofs = (*DB)(nil)

func proofKey(id string) []byte { return key(prefixProof, id) }

// PutProof writes the document in one synced commit. Pebble's commit
// pipeline syncs the log once for every commit queued meanwhile, so
// concurrent screenings share their syncs (group commit). The id's stripe
// lock makes the existence check and the write one step.
func (db *DB) PutProof(ctx context.Context, id string, doc []byte) error {
	if err := db.usable(ctx); err != nil {
		return err
	}
	if id == "" {
		return cairn.Errorf(cairn.EINVALID, "A proof needs an id.")
	}
	k := proofKey(id)
	st := db.lock(&db.proofs, id)
	defer st.Unlock()
	if old, err := db.getBytes(k); err != nil {
		return err
	} else if old != nil {
		return cairn.Errorf(cairn.ECONFLICT, "A proof with id %q exists.", id)
	}
	b := db.db.NewBatch()
	defer b.Close()
	if err := b.Set(k, doc, nil); err != nil {
		return err
	}
	return db.commit(b)
}

// Proof reads the document stored under id.
func (db *DB) Proof(ctx context.Context, id string) ([]byte, error) {
	if err := db.usable(ctx); err != nil {
		return nil, err
	}
	v, err := db.getBytes(proofKey(id))
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, cairn.Errorf(cairn.ENOTFOUND, "No proof with id %q.", id)
	}
	return v, nil
}
