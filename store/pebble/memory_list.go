package pebble

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cairn-dev/cairn"
	"github.com/cockroachdb/pebble/v2"
)

// ListMemories walks one index of the agent backwards from the position
// (createdAt: the heads, whose ids are UUIDv7; updatedAt and importance:
// their order indexes; history: the version-id index), resolving and
// filtering each entry. A page costs the entries it walks; Count walks all.
func (db *DB) ListMemories(ctx context.Context, agentID string, q cairn.MemoryQuery) (*cairn.MemoryPage, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f := q.Filter
	var lower []byte
	switch {
	case f.History && f.SortBy != "" && f.SortBy != cairn.SortCreated:
		return nil, cairn.Errorf(cairn.EINVALID, "history=true lists versions by createdAt only.").With("field", "sortBy")
	case f.History:
		lower = key(memByID, agentID)
	case f.SortBy == "" || f.SortBy == cairn.SortCreated:
		lower = key(memHead, agentID)
	case f.SortBy == cairn.SortUpdated:
		lower = key(memUpdated, agentID)
	case f.SortBy == cairn.SortImportance:
		lower = key(memImport, agentID)
	default:
		return nil, cairn.Errorf(cairn.EINVALID, "sortBy must be createdAt, updatedAt or importance.").With("field", "sortBy")
	}
	upper := prefixEnd(lower)
	if q.After != "" {
		k, err := decodePos(q.After, lower)
		if err != nil {
			return nil, err
		}
		upper = k
	}
	it, err := db.db.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: upper})
	if err != nil {
		return nil, fmt.Errorf("pebble: iterate memories: %w", err)
	}
	defer it.Close()
	page := &cairn.MemoryPage{Items: []cairn.MemoryItem{}, Total: -1}
	skipped, total, more := 0, 0, false
	var last []byte
	for ok := it.Last(); ok; ok = it.Prev() {
		item, err := db.resolveListed(agentID, lower, f.History, it)
		if err != nil {
			return nil, err
		}
		if item == nil || !memoryMatches(&item.Memory, &f) {
			continue
		}
		total++
		switch {
		case skipped < q.Offset:
			skipped++
		case len(page.Items) < q.Limit:
			page.Items = append(page.Items, *item)
			last = append(last[:0], it.Key()...)
		default:
			more = true
		}
		if more && !q.Count {
			break
		}
	}
	if err := it.Error(); err != nil {
		return nil, err
	}
	if more {
		page.Next = encodePos(last)
	}
	if q.Count {
		page.Total = total
	}
	return page, nil
}

// resolveListed reads the head and version an index entry points at (nil
// when the entry went away under the scan).
func (db *DB) resolveListed(agent string, lower []byte, history bool, it *pebble.Iterator) (*cairn.MemoryItem, error) {
	rest := it.Key()[len(lower):]
	var id string
	ver := 0
	var err error
	switch {
	case history:
		val, verr := it.ValueAndErr()
		if verr != nil {
			return nil, verr
		}
		var ok bool
		if id, ver, ok = parseMemIDValue(val); !ok {
			return nil, fmt.Errorf("pebble: bad memory id index")
		}
	case lower[len(PrefixMemory)] == 'h':
		id, _, err = readComponent(rest)
	default: // 8 bytes of time or importance, then the id
		if len(rest) < 8 {
			return nil, fmt.Errorf("pebble: short memory index key")
		}
		id, _, err = readComponent(rest[8:])
	}
	if err != nil {
		return nil, err
	}
	m, err := db.memHead(agent, id)
	if cairn.IsCode(err, cairn.ENOTFOUND) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	if ver == 0 {
		ver = m.Latest
	}
	v, err := db.memVersion(agent, id, ver)
	if cairn.IsCode(err, cairn.ENOTFOUND) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	return &cairn.MemoryItem{Memory: *m, Version: *v}, nil
}

func memoryMatches(m *cairn.Memory, f *cairn.MemoryFilter) bool {
	switch {
	case !f.Now.IsZero() && m.Expired(f.Now):
		return false
	case f.Type != "" && m.Type != f.Type:
		return false
	case f.Visibility != "" && m.Visibility != f.Visibility:
		return false
	case f.Pinned != nil && m.Pinned != *f.Pinned:
		return false
	}
	return m.Importance >= f.MinImportance
}

// MemoryKeys walks the key index of the agent from prefix.
func (db *DB) MemoryKeys(ctx context.Context, agentID, prefix string, fn func(k, memoryID string) bool) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	base := key(memByKey, agentID)
	lower := append(append([]byte(nil), base...), prefix...) // unterminated: a key prefix
	return forEach(ctx, db.db, lower, prefixEnd(base), func(ik, val []byte) error {
		k, _, err := readComponent(ik[len(base):])
		if err != nil {
			return err
		}
		if len(k) < len(prefix) || k[:len(prefix)] != prefix || !fn(k, string(val)) {
			return errStop
		}
		return nil
	})
}

// ScanLatestMemories walks every head and reads its latest version.
func (db *DB) ScanLatestMemories(ctx context.Context, fn func(m *cairn.Memory, v *cairn.MemoryVersion) error) error {
	return db.scanJSON(ctx, []byte(memHead), func(val []byte) error {
		var m cairn.Memory
		if err := json.Unmarshal(val, &m); err != nil {
			return err
		}
		v, err := db.memVersion(m.AgentID, m.ID, m.Latest)
		if err != nil {
			return err
		}
		return fn(&m, v)
	})
}
