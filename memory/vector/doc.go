// Package vector is the vector index of memory search: per agent and
// embedding space, unit vectors searched exactly or, past a threshold,
// through an HNSW graph built in the background (Index); the built-in
// hash-v1 embedding (HashEmbed) and the inner product with vector
// instructions where the CPU has them (Dot).
//
// It knows keys, versions and the filters a search applies, not where the
// vectors come from: memory fills it from the store and keeps it in line
// with writes. It imports nothing of the module.
package vector
