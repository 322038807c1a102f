// Package memory owns agent memories: versioned records whose content lives
// in the blob store, with TTL, pinning, importance, key and full-text
// search, credential screening of shared content, compression and the
// audit trail of every operation.
//
// It imports the root package, store and blob contracts and its libraries
// (bleve for full-text search, gitleaks for credential detection); it must
// not import gin, the api package or any storage implementation.
package memory
