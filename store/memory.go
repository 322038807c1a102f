package store

import (
	"context"
	"time"

	"github.com/cairn-dev/cairn"
)

// Memories holds memory records and their versions. Every method but the
// sweeps is scoped to one agent: a record of another agent is ENOTFOUND,
// exactly like an unknown id.
type Memories interface {
	// CreateMemoryVersion writes version v of memory m with its indexes and
	// the audit entry (when not nil) in one synced commit. When v.Version is
	// 1 it creates the memory: a key the agent already uses is ECONFLICT.
	// Otherwise the memory must exist with m.Latest == v.Version-1 as
	// stored, else EPRECONDITION (a concurrent write won). m.Latest,
	// m.LatestID and m.Versions are set by the store. idem, when not nil,
	// is the idempotency record of the request (see Idempotency), stored in
	// the same commit so that an acknowledged create always has it; the
	// store must then implement Idempotency.
	CreateMemoryVersion(ctx context.Context, m *cairn.Memory, v *cairn.MemoryVersion, audit *cairn.AuditEntry, idem *cairn.IdempotencyRecord) error

	// MemoryByVersionID returns the memory and the version with the id.
	MemoryByVersionID(ctx context.Context, agentID, versionID string) (*cairn.Memory, *cairn.MemoryVersion, error)

	// MemoryByKey returns the agent's memory with the key.
	MemoryByKey(ctx context.Context, agentID, key string) (*cairn.Memory, error)

	// MemoryVersions returns the stored versions of the memory, newest first.
	MemoryVersions(ctx context.Context, agentID, memoryID string) ([]cairn.MemoryVersion, error)

	// UpdateMemory runs fn on the memory head inside the store's lock and
	// stores the result (moving its indexes) with the audit entry in one
	// commit, only when fn returns nil. Only Pinned, Importance, Tags,
	// Visibility, ExpiresAt and UpdatedAt may change.
	UpdateMemory(ctx context.Context, agentID, memoryID string, fn func(*cairn.Memory) error, audit *cairn.AuditEntry) (*cairn.Memory, error)

	// DeleteMemoryVersion removes the version with the id in one commit
	// with the audit entry. When it was the latest, the newest remaining
	// version becomes the latest; when it was the only one, the memory is
	// removed and the returned head is nil.
	DeleteMemoryVersion(ctx context.Context, agentID, versionID string, audit *cairn.AuditEntry) (*cairn.Memory, *cairn.MemoryVersion, error)

	// ListMemories returns a page of the agent's memories per q.
	ListMemories(ctx context.Context, agentID string, q cairn.MemoryQuery) (*cairn.MemoryPage, error)

	// MemoryKeys calls fn with the key and memory id of each of the
	// agent's memories whose key starts with prefix, in key order, until fn
	// returns false.
	MemoryKeys(ctx context.Context, agentID, prefix string, fn func(key, memoryID string) bool) error

	// ExpiringMemories returns up to limit of the agent's unpinned memories
	// (of type typ when not empty) whose expiry is after from and not after
	// until, soonest first: memories already expired at from are not read.
	ExpiringMemories(ctx context.Context, agentID string, from, until time.Time, typ string, limit int) ([]cairn.Memory, error)

	// ExpiredMemories returns up to limit unpinned memories of any agent
	// whose expiry is at or before now, soonest first.
	ExpiredMemories(ctx context.Context, now time.Time, limit int) ([]cairn.Memory, error)

	// ExpiringAfter returns up to limit unpinned memories of any agent
	// whose expiry is not after until and whose (expiry, agent id, id)
	// comes after after's, in that order: after is the last memory of the
	// previous page, or a Memory with only ExpiresAt set to start at that
	// time (inclusive).
	ExpiringAfter(ctx context.Context, after cairn.Memory, until time.Time, limit int) ([]cairn.Memory, error)

	// LogMemoryRead appends an audit entry of a read, list or search
	// without waiting for the disk: it becomes durable with the next synced
	// commit, so a crash may lose the last read entries but never a write's.
	LogMemoryRead(ctx context.Context, e *cairn.AuditEntry) error

	// ScanLatestMemories calls fn with every memory of every agent and its
	// latest version (to rebuild a search index), until fn returns an error.
	ScanLatestMemories(ctx context.Context, fn func(m *cairn.Memory, v *cairn.MemoryVersion) error) error

	// SetServerEmbedding stores the operator embedder's vector of a
	// version (ENOTFOUND when the version is gone).
	SetServerEmbedding(ctx context.Context, agentID, versionID string, e *cairn.Embedding) error
}

// MemoryReadLog is implemented by a store that reads a version and logs
// the read in one step (PostgreSQL: one statement, one round trip where
// MemoryByVersionID and LogMemoryRead take two); the memory service reads
// with it when the store has it.
type MemoryReadLog interface {
	// ReadMemoryVersion is MemoryByVersionID that also appends e (with
	// Resource the version id and Detail {"key": the memory's key,
	// "version": the version's number}) as LogMemoryRead does, in the
	// same step, when the memory is not expired at now and the version's
	// content is inlined in its record (the read then has all it needs);
	// logged reports whether it did. Nothing is logged on an error.
	ReadMemoryVersion(ctx context.Context, agentID, versionID string, now time.Time, e *cairn.AuditEntry) (m *cairn.Memory, v *cairn.MemoryVersion, logged bool, err error)
}

// ReadLogOf returns s as a MemoryReadLog, ok false when it has none (the
// one place that asks).
func ReadLogOf(s Memories) (rl MemoryReadLog, ok bool) {
	rl, ok = s.(MemoryReadLog)
	return rl, ok
}

// MemorySearch is implemented by a backend that answers memory search
// itself, from what each write commits, so that every process sharing the
// store finds every write at once (PostgreSQL: a tsvector column under a
// GIN index and a trigram index over keys). A backend without it leaves
// search to the memory package's own index, derived state per process
// (bleve over the embedded store).
//
// The content of a version is a blob the store never reads:
// CreateMemoryVersion indexes v.SearchText as the version's text (nil: not
// indexed, as for encrypted or binary content), and the latest version's
// text is what SearchMemories matches, from the commit that makes it the
// latest (a new memory, a new version, a deleted latest).
type MemorySearch interface {
	// SearchMemories returns up to q.Limit of the agent's memories that
	// match q and are not expired at q.Now, best first (by score, then
	// by key).
	SearchMemories(ctx context.Context, agentID string, q cairn.MemorySearchQuery) ([]cairn.MemoryMatch, error)

	// UnindexedMemoryVersions calls fn with every stored version whose
	// text was never given (written before the store indexed text, or by
	// a writer that did not give it) and its memory, until fn returns an
	// error.
	UnindexedMemoryVersions(ctx context.Context, fn func(m *cairn.Memory, v *cairn.MemoryVersion) error) error

	// SetMemoryText indexes text (nil: nothing) as the text of the
	// version, and of its memory when the version is the latest
	// (ENOTFOUND when the version is gone).
	SetMemoryText(ctx context.Context, agentID, versionID string, text *string) error
}

// SearchOf returns the store's own memory search, ok false when s leaves
// search to the memory package (the one place that asks).
func SearchOf(s Memories) (ms MemorySearch, ok bool) {
	ms, ok = s.(MemorySearch)
	return ms, ok
}
