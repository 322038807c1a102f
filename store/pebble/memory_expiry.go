package pebble

import (
	"context"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cockroachdb/pebble/v2"
)

// ExpiringMemories scans the agent's expiry index up to until.
func (db *DB) ExpiringMemories(ctx context.Context, agentID string, from, until time.Time, typ string, limit int) ([]cairn.Memory, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	prefix := key(memExpiry, agentID)
	lower := appendTime(append([]byte(nil), prefix...), from.Add(time.Nanosecond))
	upper := appendTime(append([]byte(nil), prefix...), until.Add(time.Nanosecond))
	keep := func(m *cairn.Memory) bool { return typ == "" || m.Type == typ }
	return db.scanExpiry(prefix, lower, upper, limit, keep, func(rest []byte) (string, string, error) {
		id, _, err := readComponent(rest[8:])
		return agentID, id, err
	})
}

// ExpiredMemories scans the global expiry index up to now.
func (db *DB) ExpiredMemories(ctx context.Context, now time.Time, limit int) ([]cairn.Memory, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	upper := binary.BigEndian.AppendUint64([]byte(memSweep), uint64(now.UnixNano())+1)
	return db.scanExpiry([]byte(memSweep), []byte(memSweep), upper, limit, nil, parseSweepKey)
}

// ExpiringAfter scans the global expiry index from after's key up to
// until, skipping after itself.
func (db *DB) ExpiringAfter(ctx context.Context, after cairn.Memory, until time.Time, limit int) ([]cairn.Memory, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var lower []byte
	if after.AgentID == "" && after.ID == "" {
		lower = appendTime([]byte(memSweep), after.ExpiresAt)
	} else {
		lower = memSweepKey(&after)
	}
	upper := appendTime([]byte(memSweep), until.Add(time.Nanosecond))
	if string(lower) >= string(upper) {
		return []cairn.Memory{}, nil
	}
	skip := func(m *cairn.Memory) bool {
		return m.AgentID != after.AgentID || m.ID != after.ID || !m.ExpiresAt.Equal(after.ExpiresAt)
	}
	return db.scanExpiry([]byte(memSweep), lower, upper, limit, skip, parseSweepKey)
}

// parseSweepKey reads the agent and memory ids of a global expiry key
// (after its prefix).
func parseSweepKey(rest []byte) (string, string, error) {
	agent, rest, err := readComponent(rest[8:])
	if err != nil {
		return "", "", err
	}
	id, _, err := readComponent(rest)
	return agent, id, err
}

// scanExpiry reads the heads named by an expiry index between lower and
// upper (keys under prefix), skipping those keep refuses (keep nil keeps
// all), until it has limit of them.
func (db *DB) scanExpiry(prefix, lower, upper []byte, limit int, keep func(*cairn.Memory) bool, parse func(rest []byte) (string, string, error)) ([]cairn.Memory, error) {
	it, err := db.db.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: upper})
	if err != nil {
		return nil, fmt.Errorf("pebble: iterate memory expiry: %w", err)
	}
	defer it.Close()
	out := []cairn.Memory{}
	for ok := it.First(); ok && len(out) < limit; ok = it.Next() {
		rest := it.Key()[len(prefix):]
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
		if keep != nil && !keep(m) {
			continue
		}
		out = append(out, *m)
	}
	return out, it.Error()
}
