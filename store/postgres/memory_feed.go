package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
)

// MemoryChange names a memory whose head a commit changed or removed: a
// new memory or version, a deleted version, a changed pin, importance or
// expiry, a stored server vector, a sweep.
type MemoryChange struct {
	AgentID, MemoryID, Key string
}

// memoryNote is the payload of a memory change notification. From is the
// DB that committed it, so that each process skips its own.
type memoryNote struct {
	From     string `json:"f"`
	AgentID  string `json:"a"`
	MemoryID string `json:"m"`
	Key      string `json:"k"`
}

// MemoryChannel is the channel this store notifies memory changes on:
// "cairn_memory.<schema>" (see channelOf). Channels are per database;
// naming the schema keeps the processes of other schemas from hearing
// these.
func (db *DB) MemoryChannel() string { return channelOf("cairn_memory", db.schema) }

// notifyMemory sends the change of m's head with the transaction: the
// listeners hear it at commit, never for a rolled back one.
func (db *DB) notifyMemory(ctx context.Context, tx pgx.Tx, agentID, memoryID, key string) error {
	s, err := db.notifyStmt(agentID, memoryID, key)
	if err != nil {
		return err
	}
	return s.exec(ctx, tx)
}

// notifyStmt is notifyMemory's statement.
func (db *DB) notifyStmt(agentID, memoryID, key string) (stmt, error) {
	doc, err := json.Marshal(memoryNote{From: db.id, AgentID: agentID, MemoryID: memoryID, Key: key})
	if err != nil {
		return stmt{}, err
	}
	return newStmt("notify memory change", "SELECT pg_notify($1, $2)", db.MemoryChannel(), string(doc)), nil
}

// MemoryFeed hears the memory changes committed by other processes on
// the schema (a process never hears its own: it updates its derived state
// as it writes).
type MemoryFeed struct {
	l *Listener
}

// ListenMemoryChanges starts listening for memory changes: every change
// committed from then on reaches Next.
func (db *DB) ListenMemoryChanges(ctx context.Context) (*MemoryFeed, error) {
	l, err := db.Listen(ctx, db.MemoryChannel())
	if err != nil {
		return nil, fmt.Errorf("postgres: listen for memory changes: %w", err)
	}
	return &MemoryFeed{l: l}, nil
}

// Close stops listening.
func (f *MemoryFeed) Close() { f.l.Close() }

// FollowMemoryChanges calls fn with each memory change other processes
// commit, until ctx ends: heard by first (nil: none yet), then, after a
// failure, by a new listener every retry interval until one is up. Each
// time a new listener is up, before its changes, catchUp is called: the
// changes committed while nothing listened are lost, so the caller
// compares its derived state with the store there.
func (db *DB) FollowMemoryChanges(ctx context.Context, first *MemoryFeed, retry time.Duration, logger *slog.Logger,
	catchUp func(), fn func(MemoryChange)) {
	var l *Listener
	if first != nil {
		l = first.l
	}
	db.follow(ctx, db.MemoryChannel(), "memory changes", l, retry, logger, catchUp, func(payload string) {
		var n memoryNote
		if err := json.Unmarshal([]byte(payload), &n); err != nil || n.AgentID == "" || n.Key == "" {
			logger.Warn("ignored a malformed memory change notification", "payload", payload)
			return
		}
		if n.From != db.id {
			fn(MemoryChange{AgentID: n.AgentID, MemoryID: n.MemoryID, Key: n.Key})
		}
	})
}
