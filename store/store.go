// Package store is the storage contract of cairn: small interfaces, one per
// kind of record, that backends implement and that store/storetest checks.
//
// Store is what every backend provides (*pebble.DB and *postgres.DB), one
// interface per kind of record, and storetest.RunTests runs the suite of
// each on both:
//
//   - Accounts: developers, their agents and the index of API key hashes,
//     and the deposit derivation indexes (store.go);
//   - Ledger: the credit ledger of each developer and its unique keys
//     (store.go);
//   - Audit: the per-agent operation log (store.go);
//   - Settings: named service-wide documents such as the live prices
//     (store.go);
//   - Memories: memory heads, their versions and their indexes (memory.go);
//   - Media: media file records (media.go);
//   - Idempotency: the stored answers of creates sent with an
//     Idempotency-Key (idempotency.go);
//   - Settled: marks of charges that stand with no effect logged, for the
//     crash recovery of charges (settled.go);
//   - Screenings: free screening windows and the screening count
//     (screenings.go);
//   - Compliance: sanctions list versions, their current entries and each
//     address's history (compliance.go);
//   - Reports: community reports and their escalations (reports.go);
//   - Anchors: the on-chain anchoring of each list version (anchors.go);
//   - RateLimits: the counters of the limits that survive a restart
//     (ratelimits.go);
//   - Proofs: screening proof documents by screening id (proofs.go);
//   - Watchlists: watched addresses, their index and the alerts list
//     versions record for them (watch.go);
//   - Webhooks: webhook endpoints and their deliveries (webhooks.go).
//
// Two interfaces are optional, as only one backend implements each; the
// store package says which a backend has (SearchOf, PreparerOf), so that
// no other package asserts a store's type:
//
//   - MemorySearch: key and full-text search of memories answered by the
//     store itself, from what each write commits (memory.go; *postgres.DB
//     only: over the embedded store, the memory package searches with an
//     index of its own);
//   - ListVersionPreparer: a list version's entries prepared before the
//     commit (compliance.go; *pebble.DB only).
//
// With PostgreSQL, cmd/cairn keeps only each instance's crash-recovery
// checkpoint in the embedded store.
//
// Multi-record changes that must be atomic are single methods here (for
// example CreateAccount writes the developer, the agent, its key index and
// the starter grant together); read-modify-write goes through an updater
// function run inside the backend's transaction.
//
// The values the interfaces take and return (records, filters, queries,
// counts) are types of the root package, never of this one: store holds
// behaviour, cairn the data (deps_test.go checks that store declares no
// struct).
//
// It imports only the root package and the standard library: no backend, no
// HTTP, no chain.
package store

import (
	"context"
	"time"

	"github.com/cairn-dev/cairn"
)

// Store is everything both backends provide: every operation of the
// service's records.
type Store interface {
	Accounts
	Ledger
	Audit
	Settings
	Memories
	Media
	Idempotency
	Settled
	Screenings
	Compliance
	Reports
	Anchors
	RateLimits
	Proofs
	Watchlists
	Webhooks
	// Ping reports whether the backend is reachable and usable.
	Ping(ctx context.Context) error
	// Close releases the backend. No method may be called after it.
	Close() error
}

// Accounts holds developer accounts and their agents. Agents are found by id
// or by the SHA-256 of their API key.
type Accounts interface {
	// CreateAccount atomically creates dev, its first agent and, when grant
	// is not nil, the ledger entry that gives the starter credits (the store
	// sets grant's Seq and BalanceAfter and dev.Balance). It fails with
	// ECONFLICT when an id, a key hash or a deposit index is already taken.
	CreateAccount(ctx context.Context, dev *cairn.Developer, agent *cairn.Agent, grant *cairn.LedgerEntry) error

	// EnsureDeveloper returns the developer with the id, creating it with a
	// zero balance when it does not exist (developers known only from a JWT).
	EnsureDeveloper(ctx context.Context, id string) (*cairn.Developer, error)

	// CreateAgent adds an agent to an existing developer (ENOTFOUND when
	// the developer is unknown). Its price is charged by the caller's
	// billing, like every priced operation.
	CreateAgent(ctx context.Context, agent *cairn.Agent) error

	// Developer returns a developer by id (ENOTFOUND when unknown).
	Developer(ctx context.Context, id string) (*cairn.Developer, error)

	// Agent returns an agent by id (ENOTFOUND when unknown).
	Agent(ctx context.Context, id string) (*cairn.Agent, error)

	// AgentByKeyHash returns the agent whose current API key hashes to h
	// (ENOTFOUND when none).
	AgentByKeyHash(ctx context.Context, h []byte) (*cairn.Agent, error)

	// UpdateAgent runs fn on the agent inside the backend's transaction and
	// stores the result, with the audit entry when it is not nil, only when
	// fn returns nil. A changed KeyHash moves the key index in the same
	// commit: the old key stops resolving at once. ID and DeveloperID cannot
	// change.
	UpdateAgent(ctx context.Context, id string, fn func(*cairn.Agent) error, audit *cairn.AuditEntry) (*cairn.Agent, error)

	// NextDepositIndex reserves the next unused HD derivation index. Indexes
	// are never handed out twice, even across restarts.
	NextDepositIndex(ctx context.Context) (uint32, error)
}

// Ledger is the credit ledger of developer accounts.
type Ledger interface {
	// Apply appends e to the ledger of e.DeveloperID and moves the balance
	// by e.Amount in one atomic commit. It assigns e.Seq, e.BalanceAfter and
	// e.CreatedAt when zero. An entry that would take the balance below zero
	// fails with EPAYMENT (Details "required" and "available") and writes
	// nothing; concurrent calls never overspend. An entry whose UniqueKey was
	// already used fails with ECONFLICT. An unknown developer is ENOTFOUND.
	//
	// A store may defer a charge (kind charge, negative, no UniqueKey):
	// accept it against a balance it holds in memory and write it with
	// others shortly after, before any read of that balance or ledger and
	// before any other entry of the account. Its Seq and BalanceAfter are
	// then 0 on return (the ledger read later has them). PostgreSQL's may
	// still refuse a deferred charge when another instance spent the
	// balance meanwhile: the charge is then dropped (the service's loss,
	// counted), and a refund of it is a no-op that succeeds.
	Apply(ctx context.Context, e *cairn.LedgerEntry) error

	// Transactions returns up to limit entries of the developer's ledger,
	// newest first, with Seq below beforeSeq (0: from the newest).
	Transactions(ctx context.Context, developerID string, beforeSeq uint64, limit int) ([]cairn.LedgerEntry, error)

	// LedgerByUniqueKey returns the entry that used a unique key (for
	// example the credit of a deposit's transaction hash), ENOTFOUND when
	// none did.
	LedgerByUniqueKey(ctx context.Context, uniqueKey string) (*cairn.LedgerEntry, error)

	// LedgerSince calls fn with every entry of every developer's ledger
	// whose CreatedAt is at or after since, by CreatedAt (then developer
	// and Seq), until fn returns false. Its cost follows the number of
	// entries since then, not the size of the ledger (crash recovery of
	// charges reads the last moments of a run with it).
	LedgerSince(ctx context.Context, since time.Time, fn func(e *cairn.LedgerEntry) bool) error
}

// Audit is the per-agent operation log.
type Audit interface {
	// AppendAudit records e (the store assigns ID and CreatedAt when empty).
	AppendAudit(ctx context.Context, e *cairn.AuditEntry) error

	// ListAudit returns up to limit entries of the agent's log matching f,
	// newest first, strictly older than the entry with id beforeID ("" :
	// from the newest).
	ListAudit(ctx context.Context, agentID string, f cairn.AuditFilter, beforeID string, limit int) ([]cairn.AuditEntry, error)
}

// Settings holds small named documents of service-wide configuration that
// administrators change at run time (for example the live prices).
type Settings interface {
	// Setting returns the stored value (ENOTFOUND when never set).
	Setting(ctx context.Context, name string) ([]byte, error)
	// PutSetting stores the value durably.
	PutSetting(ctx context.Context, name string, value []byte) error
	// PutSettingIfAbsent stores the value durably unless the setting
	// exists, and returns the value stored after the call: value, or
	// the one another writer stored first (one of two concurrent calls
	// wins, and both see its value).
	PutSettingIfAbsent(ctx context.Context, name string, value []byte) ([]byte, error)
	// UpdateSetting runs fn on the stored value (nil when never set)
	// inside the backend's transaction and stores what fn returns when
	// fn returns nil (fn's error is returned as is, and nothing is
	// written); it returns the value stored. Concurrent updates of one
	// setting, by this process or another sharing the store, run one
	// after the other, each on the value the previous one stored, so
	// that none is lost. fn must not call the store.
	UpdateSetting(ctx context.Context, name string, fn func(old []byte) ([]byte, error)) ([]byte, error)
}
