package pebble

import (
	"context"
	"fmt"

	"github.com/cockroachdb/pebble/v2"

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
	if ok, err := db.has(k); err != nil {
		return err
	} else if ok {
		return cairn.Errorf(cairn.ECONFLICT, "A proof with id %q exists.", id)
	}
	return db.putProof(k, doc)
}

// PutNewProof writes the document in one synced commit, without the
// existence check and the stripe lock of PutProof: for a fresh random id
// (store.Proofs) the check is a point read that finds nothing, through
// every memtable and level of a keyspace that grows by thousands of
// records a second (about a twentieth of the server's CPU under the
// screening load, BENCHMARKS.md).
func (db *DB) PutNewProof(ctx context.Context, id string, doc []byte) error {
	if err := db.usable(ctx); err != nil {
		return err
	}
	if id == "" {
		return cairn.Errorf(cairn.EINVALID, "A proof needs an id.")
	}
	return db.putProof(proofKey(id), doc)
}

// putProof commits doc at k, synced.
func (db *DB) putProof(k, doc []byte) error {
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

// HasProof seeks the id's key without reading its value, which lies in a
// blob file for any record of size (db.go).
func (db *DB) HasProof(ctx context.Context, id string) (bool, error) {
	if err := db.usable(ctx); err != nil {
		return false, err
	}
	k := proofKey(id)
	it, err := db.db.NewIter(&pebble.IterOptions{LowerBound: k, UpperBound: append(k[:len(k):len(k)], 0)})
	if err != nil {
		return false, fmt.Errorf("pebble: iterate: %w", err)
	}
	found := it.First()
	if err := it.Close(); err != nil {
		return false, fmt.Errorf("pebble: iterate: %w", err)
	}
	return found, nil
}
