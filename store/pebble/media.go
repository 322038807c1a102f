package pebble

import (
	"context"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/cockroachdb/pebble/v2"
)

// Media keys, inside the reserved PrefixMedia:
//
//	media/r/<agentID><id>                 Media (JSON); ids are UUIDv7, so by time
//	media/c/<agentID><category><id>       empty: index by category
//	media/x/<expiresAt BE int64 ns><agentID><id>  empty: expiry index of unpinned media
const (
	mediaRec = PrefixMedia + "r/"
	mediaCat = PrefixMedia + "c/"
	mediaExp = PrefixMedia + "x/"
)

func mediaKey(agent, id string) []byte         { return key(mediaRec, agent, id) }
func mediaCatKey(agent, cat, id string) []byte { return key(mediaCat, agent, cat, id) }

func mediaExpKey(at time.Time, agent, id string) []byte {
	k := binary.BigEndian.AppendUint64([]byte(mediaExp), uint64(at.UnixNano()))
	return appendComponent(appendComponent(k, agent), id)
}

// CreateMedia stores the record, its indexes and the audit entry in one
// synced batch.
func (db *DB) CreateMedia(ctx context.Context, m *cairn.Media, audit *cairn.AuditEntry) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if !cairn.ValidID(m.ID) || m.AgentID == "" {
		return cairn.Errorf(cairn.EINVALID, "Media needs an id and an agent.")
	}
	if m.CreatedAt.IsZero() {
		m.CreatedAt = db.clock.Now()
	}
	st := db.lock(&db.agts, "media\x00"+m.ID)
	defer st.Unlock()
	if ok, err := db.has(mediaKey(m.AgentID, m.ID)); err != nil {
		return err
	} else if ok {
		return cairn.Errorf(cairn.ECONFLICT, "Media %s already exists.", m.ID)
	}
	b := db.db.NewBatch()
	defer b.Close()
	if err := setJSON(b, mediaKey(m.AgentID, m.ID), m); err != nil {
		return err
	}
	_ = b.Set(mediaCatKey(m.AgentID, m.Category, m.ID), nil, nil)
	if !m.Pinned && !m.ExpiresAt.IsZero() {
		_ = b.Set(mediaExpKey(m.ExpiresAt, m.AgentID, m.ID), nil, nil)
	}
	return db.commitAudit(b, audit)
}

// GetMedia returns the agent's record.
func (db *DB) GetMedia(ctx context.Context, agentID, id string) (*cairn.Media, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return getRecord[cairn.Media](db, mediaKey(agentID, id), store.MediaNotFound)
}

// DeleteMedia removes the record, its indexes and writes the audit entry.
func (db *DB) DeleteMedia(ctx context.Context, agentID, id string, audit *cairn.AuditEntry) (*cairn.Media, error) {
	return db.changeMedia(ctx, agentID, id, audit, func(b *pebble.Batch, m *cairn.Media) error {
		_ = b.Delete(mediaKey(agentID, id), nil)
		_ = b.Delete(mediaCatKey(agentID, m.Category, id), nil)
		if !m.Pinned && !m.ExpiresAt.IsZero() {
			_ = b.Delete(mediaExpKey(m.ExpiresAt, agentID, id), nil)
		}
		return nil
	})
}

// RenewMedia sets the record's expiry, moving its expiry index, with the
// audit entry in one commit.
func (db *DB) RenewMedia(ctx context.Context, agentID, id string, expiresAt time.Time, audit *cairn.AuditEntry) (*cairn.Media, error) {
	return db.changeMedia(ctx, agentID, id, audit, func(b *pebble.Batch, m *cairn.Media) error {
		if !m.Pinned && !m.ExpiresAt.IsZero() {
			_ = b.Delete(mediaExpKey(m.ExpiresAt, agentID, id), nil)
		}
		m.ExpiresAt = expiresAt
		if err := setJSON(b, mediaKey(agentID, id), m); err != nil {
			return err
		}
		if !m.Pinned && !m.ExpiresAt.IsZero() {
			_ = b.Set(mediaExpKey(m.ExpiresAt, agentID, id), nil, nil)
		}
		return nil
	})
}

// changeMedia reads a record under its lock, lets change stage what
// becomes of it in a batch, and commits that with the audit entry; it
// returns the record as change left it.
func (db *DB) changeMedia(ctx context.Context, agentID, id string, audit *cairn.AuditEntry, change func(*pebble.Batch, *cairn.Media) error) (*cairn.Media, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	st := db.lock(&db.agts, "media\x00"+id)
	defer st.Unlock()
	m, err := db.GetMedia(ctx, agentID, id)
	if err != nil {
		return nil, err
	}
	b := db.db.NewBatch()
	defer b.Close()
	if err := change(b, m); err != nil {
		return nil, err
	}
	if err := db.commitAudit(b, audit); err != nil {
		return nil, err
	}
	return m, nil
}

// ListMedia pages the agent's records newest first, by a reverse seek over
// the record keys or, with a category, over the category index.
func (db *DB) ListMedia(ctx context.Context, agentID string, f cairn.MediaFilter, beforeID string, limit int) ([]cairn.Media, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if f.Category == "" {
		lower, upper := pageBounds(key(mediaRec, agentID), beforeID)
		return lastFirst[cairn.Media](ctx, db, lower, upper, limit, nil, nil)
	}
	lower, upper := pageBounds(key(mediaCat, agentID, f.Category), beforeID)
	return lastFirst(ctx, db, lower, upper, limit, func(id string) (*cairn.Media, error) {
		m, err := db.GetMedia(ctx, agentID, id)
		if err != nil {
			return nil, fmt.Errorf("pebble: media index points at %s: %w", id, err)
		}
		return m, nil
	}, nil)
}

// ExpiredMedia scans the expiry index up to now.
func (db *DB) ExpiredMedia(ctx context.Context, now time.Time, limit int) ([]cairn.Media, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	upper := binary.BigEndian.AppendUint64([]byte(mediaExp), uint64(now.UnixNano())+1)
	it, err := db.db.NewIter(&pebble.IterOptions{LowerBound: []byte(mediaExp), UpperBound: upper})
	if err != nil {
		return nil, fmt.Errorf("pebble: iterate media expiry: %w", err)
	}
	defer it.Close()
	out := []cairn.Media{}
	for ok := it.First(); ok && len(out) < limit; ok = it.Next() {
		rest := it.Key()[len(mediaExp)+8:]
		agent, rest, err := readComponent(rest)
		if err != nil {
			return nil, err
		}
		id, _, err := readComponent(rest)
		if err != nil {
			return nil, err
		}
		m, err := db.GetMedia(ctx, agent, id)
		if cairn.IsCode(err, cairn.ENOTFOUND) {
			continue // deleted since the scan began
		} else if err != nil {
			return nil, err
		}
		out = append(out, *m)
	}
	return out, it.Error()
}
