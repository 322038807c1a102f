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

// ExpiringMemories scans the agent's expiry index up to until.
func (db *DB) ExpiringMemories(ctx context.Context, agentID string, until time.Time, limit int) ([]store.Memory, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	lower := key(memExpiry, agentID)
	upper := appendTime(append([]byte(nil), lower...), until)
	return db.scanExpiry(lower, upper, limit, func(rest []byte) (string, string, error) {
		id, _, err := readComponent(rest[8:])
		return agentID, id, err
	})
}

// ExpiredMemories scans the global expiry index up to now.
func (db *DB) ExpiredMemories(ctx context.Context, now time.Time, limit int) ([]store.Memory, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	upper := binary.BigEndian.AppendUint64([]byte(memSweep), uint64(now.UnixNano())+1)
	return db.scanExpiry([]byte(memSweep), upper, limit, func(rest []byte) (string, string, error) {
		agent, rest, err := readComponent(rest[8:])
		if err != nil {
			return "", "", err
		}
		id, _, err := readComponent(rest)
		return agent, id, err
	})
}

func (db *DB) scanExpiry(lower, upper []byte, limit int, parse func(rest []byte) (string, string, error)) ([]store.Memory, error) {
	it, err := db.db.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: upper})
	if err != nil {
		return nil, fmt.Errorf("pebble: iterate memory expiry: %w", err)
	}
	defer it.Close()
	out := []store.Memory{}
	for ok := it.First(); ok && len(out) < limit; ok = it.Next() {
		rest := it.Key()[len(lower):]
		if len(rest) < 8 {
			return nil, fmt.Errorf("pebble: short memory expiry key")
		}
		agent, id, err := parse(rest)
		if err != nil {
			return nil, err
		}
		m, err := db.memHead(agent, id)
		if cairn.IsCode(err, cairn.ENOTFOUND) {
			continue
		} else if err != nil {
			return nil, err
		}
		out = append(out, *m)
	}
	return out, it.Error()
}
