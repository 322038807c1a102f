package pebble

import (
	"context"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

// UpdateMemory runs fn on the head under the memory's lock and stores the
// result with its moved indexes and the audit entry in one synced batch.
func (db *DB) UpdateMemory(ctx context.Context, agentID, memoryID string, fn func(*cairn.Memory) error, audit *cairn.AuditEntry) (*cairn.Memory, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !cairn.ValidID(memoryID) {
		return nil, store.MemoryNotFound()
	}
	peek, err := db.memHead(agentID, memoryID)
	if err != nil {
		return nil, err
	}
	st := db.lockMemory(agentID, peek.Key)
	defer st.Unlock()
	old, err := db.memHead(agentID, memoryID) // again, under the lock
	if err != nil {
		return nil, err
	}
	m := *old
	m.Tags = append([]string(nil), old.Tags...)
	if err := fn(&m); err != nil {
		return nil, err
	}
	// Only the mutable fields survive fn.
	next := *old
	next.Pinned, next.Importance, next.Tags, next.Visibility = m.Pinned, m.Importance, m.Tags, m.Visibility
	next.ExpiresAt, next.UpdatedAt = m.ExpiresAt, m.UpdatedAt
	b := db.db.NewBatch()
	defer b.Close()
	if err := db.stageHead(b, old, &next); err != nil {
		return nil, err
	}
	if err := db.commitAudit(b, audit); err != nil {
		return nil, err
	}
	return &next, nil
}

// DeleteMemoryVersion removes one version. The newest remaining version
// becomes the latest; removing the last one removes the memory, its key and
// every index, all in one synced batch with the audit entry.
func (db *DB) DeleteMemoryVersion(ctx context.Context, agentID, versionID string, audit *cairn.AuditEntry) (*cairn.Memory, *cairn.MemoryVersion, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	id, _, peek, err := db.versionHead(agentID, versionID)
	if err != nil {
		return nil, nil, err
	}
	st := db.lockMemory(agentID, peek.Key)
	defer st.Unlock()
	id, ver, old, err := db.versionHead(agentID, versionID)
	if err != nil {
		return nil, nil, err
	}
	versions, err := db.MemoryVersions(ctx, agentID, id)
	if err != nil {
		return nil, nil, err
	}
	var gone *cairn.MemoryVersion
	var rest []cairn.MemoryVersion
	for i := range versions {
		if versions[i].Version == ver {
			gone = &versions[i]
		} else {
			rest = append(rest, versions[i])
		}
	}
	if gone == nil {
		return nil, nil, store.MemoryNotFound()
	}
	b := db.db.NewBatch()
	defer b.Close()
	_ = b.Delete(memVersionKey(agentID, id, ver), nil)
	_ = b.Delete(memIDKey(agentID, versionID), nil)
	var head *cairn.Memory
	if len(rest) == 0 {
		_ = b.Delete(memHeadKey(agentID, id), nil)
		_ = b.Delete(memKeyKey(agentID, old.Key), nil)
		_ = b.Delete(memUpdatedKey(old), nil)
		_ = b.Delete(memImportKey(old), nil)
		if !old.Pinned && !old.ExpiresAt.IsZero() {
			_ = b.Delete(memExpiryKey(old), nil)
			_ = b.Delete(memSweepKey(old), nil)
		}
	} else {
		next := *old
		next.Versions = len(rest)
		next.Latest, next.LatestID = rest[0].Version, rest[0].ID // newest remaining
		next.UpdatedAt = db.clock.Now()
		if err := db.stageHead(b, old, &next); err != nil {
			return nil, nil, err
		}
		head = &next
	}
	if err := db.commitAudit(b, audit); err != nil {
		return nil, nil, err
	}
	return head, gone, nil
}
