package pebble

import (
	"context"

	"github.com/cairn-dev/cairn"
)

// SetServerEmbedding stores e as the operator embedder's vector of the
// version, under the memory's lock, in one synced write; a version deleted
// meanwhile is 404.
func (db *DB) SetServerEmbedding(ctx context.Context, agentID, versionID string, e *cairn.Embedding) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	id, _, peek, err := db.versionHead(agentID, versionID)
	if err != nil {
		return err
	}
	st := db.lockMemory(agentID, peek.Key)
	defer st.Unlock()
	id, ver, err := db.resolveVersionID(agentID, versionID) // again, under the lock
	if err != nil {
		return err
	}
	v, err := db.memVersion(agentID, id, ver)
	if err != nil {
		return err
	}
	v.ServerEmbedding = e
	b := db.db.NewBatch()
	defer b.Close()
	if err := setJSON(b, memVersionKey(agentID, id, ver), v); err != nil {
		return err
	}
	return db.commit(b)
}
