package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
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

// A NOTIFY in a transaction takes, at its commit, a lock of the whole
// database cluster that it keeps until the commit is on disk: commits that
// notify wait for each other's WAL flush, one at a time, where commits
// without one share flushes. So a new version (the write a client makes
// most) is notified just after its commit instead, by notifyCommitted:
// the notes of the versions committed meanwhile go out together, in one
// statement whose commit does not wait for the disk. A crash of the
// process between a commit and its note loses the note, which the
// periodic catch-up of the other instances makes up for.

// noteQueue groups the notes of notifyCommitted.
type noteQueue struct {
	mu   sync.Mutex
	next *noteBatch // filling, until its sender takes it
	send sync.Mutex // held by the sender of a batch
}

// noteBatch is the payloads of one statement of notifications; done is
// closed once it was sent (or failed).
type noteBatch struct {
	notes []string
	done  chan struct{}
}

// sqlNotifyAll sends the notifications of $2 (payloads) on channel $1.
const sqlNotifyAll = `SELECT pg_notify($1, n) FROM unnest($2::text[]) AS n, (SELECT ` + asyncCommitExpr + `) AS async`

// notifyCommitted notifies the change of a memory whose commit is done,
// with the notes of other commits: the first note of a batch waits for the
// batch before to be sent, then sends its batch, which the notes of that
// wait joined. It returns once the note was sent; a failure is not the
// write's, which is committed.
func (db *DB) notifyCommitted(ctx context.Context, agentID, memoryID, key string) {
	doc, err := json.Marshal(memoryNote{From: db.id, AgentID: agentID, MemoryID: memoryID, Key: key})
	if err != nil {
		return
	}
	q := &db.notes
	q.mu.Lock()
	b := q.next
	first := b == nil
	if first {
		b = &noteBatch{done: make(chan struct{})}
		q.next = b
	}
	b.notes = append(b.notes, string(doc))
	q.mu.Unlock()
	if !first {
		select {
		case <-b.done:
		case <-ctx.Done():
		}
		return
	}
	q.send.Lock()
	defer q.send.Unlock()
	q.mu.Lock()
	q.next = nil // later notes go to the next batch
	q.mu.Unlock()
	defer close(b.done)
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	_, _ = db.pool.Exec(sctx, sqlNotifyAll, db.MemoryChannel(), b.notes)
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
