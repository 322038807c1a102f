// Package memory owns agent memories: versioned records whose content lives
// in the blob store, with TTL (expiring lists, renewal, the sweep),
// pinning, importance, filtered and paged listing, key, full-text and
// vector search (vectors from the operator's embeddings server or a local
// hash embedding), credential screening of shared content, compression,
// the options of an upload form (ParseUpload, as media.ParseOptions reads
// media's) and the audit trail of every operation.
//
// The search indexes (Index, Vectors) are derived state, per process:
// Rebuild fills them from the store at start and each write updates them
// after its commit. Processes sharing a store keep them in line with each
// other's writes through Refresh (a key another process changed) and
// CatchUp (after changes may have been missed), fed by the store's change
// notifications (store/postgres.FollowMemoryChanges).
//
// It imports the root package, the store and blob contracts, media (file
// name rules) and its libraries (bleve for full-text search, gitleaks for
// credential detection); it must not import gin, the api package or any
// storage implementation.
package memory
