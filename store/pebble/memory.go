package pebble

import (
	"context"
	"fmt"
	"math"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/cockroachdb/pebble/v2"
)

type memRow = cairn.Memory

// lockMemory serializes the writes of one memory key of one agent.
func (db *DB) lockMemory(agent, k string) *stripe {
	return db.lock(&db.agts, "mem\x00"+agent+"\x00"+k)
}

// CreateMemoryVersion writes the version, the head, every index that moves,
// the audit entry and the idempotency record in one synced batch.
func (db *DB) CreateMemoryVersion(ctx context.Context, m *cairn.Memory, v *cairn.MemoryVersion, audit *cairn.AuditEntry, idem *cairn.IdempotencyRecord) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if !cairn.ValidID(v.ID) || !cairn.ValidID(m.ID) || m.AgentID == "" || m.Key == "" || v.Version < 1 {
		return cairn.Errorf(cairn.EINVALID, "A memory version needs ids, an agent, a key and a version.")
	}
	st := db.lockMemory(m.AgentID, m.Key)
	defer st.Unlock()
	var old *cairn.Memory
	prior := 0
	if v.Version == 1 {
		if ok, err := db.has(memKeyKey(m.AgentID, m.Key)); err != nil {
			return err
		} else if ok {
			return cairn.Errorf(cairn.ECONFLICT, "Key %q is already in use.", m.Key).With("key", m.Key)
		}
	} else {
		cur, err := db.memHead(m.AgentID, m.ID)
		if err != nil {
			return err
		}
		if cur.Latest != v.Version-1 || cur.Key != m.Key {
			return cairn.Errorf(cairn.EPRECONDITION, "Memory changed: latest version is %d.", cur.Latest).With("version", cur.Latest)
		}
		old, prior = cur, cur.Versions
	}
	if ok, err := db.has(memIDKey(m.AgentID, v.ID)); err != nil {
		return err
	} else if ok {
		return cairn.Errorf(cairn.ECONFLICT, "Version id %s already exists.", v.ID)
	}
	m.AddVersion(v, prior)
	b := db.db.NewBatch()
	defer b.Close()
	if err := setJSON(b, memVersionKey(m.AgentID, m.ID, v.Version), v); err != nil {
		return err
	}
	_ = b.Set(memIDKey(m.AgentID, v.ID), memIDValue(m.ID, v.Version), nil)
	_ = b.Set(memKeyKey(m.AgentID, m.Key), []byte(m.ID), nil)
	if err := db.stageHead(b, old, m); err != nil {
		return err
	}
	if audit != nil {
		if err := db.stageAudit(b, audit); err != nil {
			return err
		}
	}
	if idem != nil {
		ist := db.lockIdem(idem.AgentID, idem.Route, idem.Key)
		defer ist.Unlock()
		if err := db.stageIdempotency(b, idem); err != nil {
			return err
		}
	}
	return db.commit(b)
}

// stageHead stores m and moves its order and expiry indexes from old (nil
// when m is new).
func (db *DB) stageHead(b *pebble.Batch, old, m *cairn.Memory) error {
	if old != nil {
		_ = b.Delete(memUpdatedKey(old), nil)
		_ = b.Delete(memImportKey(old), nil)
		if !old.Pinned && !old.ExpiresAt.IsZero() {
			_ = b.Delete(memExpiryKey(old), nil)
			_ = b.Delete(memSweepKey(old), nil)
		}
	}
	if err := setJSON(b, memHeadKey(m.AgentID, m.ID), m); err != nil {
		return err
	}
	_ = b.Set(memUpdatedKey(m), nil, nil)
	_ = b.Set(memImportKey(m), nil, nil)
	if !m.Pinned && !m.ExpiresAt.IsZero() {
		_ = b.Set(memExpiryKey(m), nil, nil)
		_ = b.Set(memSweepKey(m), nil, nil)
	}
	return nil
}

// LogMemoryRead stages the audit entry and commits it without a sync.
func (db *DB) LogMemoryRead(ctx context.Context, e *cairn.AuditEntry) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b := db.db.NewBatch()
	defer b.Close()
	if err := db.stageAudit(b, e); err != nil {
		return err
	}
	if err := b.Commit(pebble.NoSync); err != nil {
		return fmt.Errorf("pebble: commit: %w", err)
	}
	return nil
}

var _ store.Memories = (*DB)(nil)

func (db *DB) memHead(agent, id string) (*cairn.Memory, error) {
	return getRecord[cairn.Memory](db, memHeadKey(agent, id), store.MemoryNotFound)
}

func (db *DB) memVersion(agent, id string, ver int) (*cairn.MemoryVersion, error) {
	return getRecord[cairn.MemoryVersion](db, memVersionKey(agent, id, ver), store.MemoryNotFound)
}

// versionHead resolves the agent's version id (resolveVersionID) and reads
// the head of its memory.
func (db *DB) versionHead(agentID, versionID string) (string, int, *cairn.Memory, error) {
	id, ver, err := db.resolveVersionID(agentID, versionID)
	if err != nil {
		return "", 0, nil, err
	}
	m, err := db.memHead(agentID, id)
	return id, ver, m, err
}

// resolveVersionID finds the memory id and version number of a version id.
func (db *DB) resolveVersionID(agent, vid string) (string, int, error) {
	if !cairn.ValidID(vid) {
		return "", 0, store.MemoryNotFound()
	}
	val, err := db.getBytes(memIDKey(agent, vid))
	if err != nil {
		return "", 0, err
	}
	if val == nil {
		return "", 0, store.MemoryNotFound()
	}
	id, ver, ok := parseMemIDValue(val)
	if !ok {
		return "", 0, fmt.Errorf("pebble: bad memory id index for %s", vid)
	}
	return id, ver, nil
}

// MemoryByVersionID returns the head and the version with the id.
func (db *DB) MemoryByVersionID(ctx context.Context, agentID, versionID string) (*cairn.Memory, *cairn.MemoryVersion, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	id, ver, m, err := db.versionHead(agentID, versionID)
	if err != nil {
		return nil, nil, err
	}
	v, err := db.memVersion(agentID, id, ver)
	if err != nil {
		return nil, nil, err
	}
	return m, v, nil
}

// MemoryByKey returns the agent's memory with the key.
func (db *DB) MemoryByKey(ctx context.Context, agentID, k string) (*cairn.Memory, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	id, err := db.getBytes(memKeyKey(agentID, k))
	if err != nil {
		return nil, err
	}
	if id == nil {
		return nil, store.MemoryNotFound()
	}
	return db.memHead(agentID, string(id))
}

// MemoryVersions returns the stored versions, newest first, by a reverse
// scan of the big-endian version keys.
func (db *DB) MemoryVersions(ctx context.Context, agentID, memoryID string) ([]cairn.MemoryVersion, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	lower := memVersionPrefix(agentID, memoryID)
	out, err := lastFirst[cairn.MemoryVersion](ctx, db, lower, prefixEnd(lower), math.MaxInt, nil, nil)
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, store.MemoryNotFound()
	}
	return out, nil
}
