// Package memory owns agent memories: versioned records whose content lives
// in the blob store, with TTL (expiring lists, renewal, the sweep),
// pinning, importance, filtered and paged listing, key, full-text and
// vector search (vectors from the operator's embeddings server or a local
// hash embedding), credential screening of shared content, compression,
// the options of an upload form (ParseUpload, as media.ParseOptions reads
// media's) and the audit trail of every operation.
//
// A write (Create, NewVersion) flows once: check.go validates every field
// of the request before any lock or store is touched, writeVersion stores
// the blob and commits the version with its audit entry and idempotency
// record, and the head that commit writes is cairn.Memory.AddVersion's,
// the stores' own rule, so the answer committed with it is the answer.
//
// The search indexes (Index, and Vectors: a memory/vector.Index) are
// derived state, per process: Rebuild fills them from the store at start
// and each write updates them after its commit. Processes sharing a store keep them in line with each
// other's writes through Refresh (a key another process changed) and
// CatchUp (after changes may have been missed), fed by the store's change
// notifications (store/postgres.FollowMemoryChanges).
//
// Key and full-text search go through Index (an in-memory key map and a
// bleve index) unless the Index is nil and the store searches itself
// (store.MemorySearch: PostgreSQL, which every process reads at once, so
// only Vectors then follow the change notifications); the service then
// hands the store the plain text of each version it writes, and fills the
// text of versions stored without it at start.
//
// It imports the root package, the store and blob contracts, media (file
// name rules) and its libraries (bleve for full-text search over the
// embedded store, gitleaks for credential detection); it must not import
// gin, the api package or any storage implementation.
package memory
