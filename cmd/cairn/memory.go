package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
	"github.com/cairn-dev/cairn/memory"
	"github.com/cairn-dev/cairn/memory/vector"
	"github.com/cairn-dev/cairn/store"
)

// openMemory builds the memory service over db (the shared store: Postgres
// with --store postgres://..., else the embedded store) and the blob
// store, and fills its search state from the store before serving: on the
// embedded store, the key map and bleve full-text index (derived state
// under <data-dir>/memory-index, rebuilt at every start); on PostgreSQL,
// which answers key and full-text search itself (store.MemorySearch), the
// text of versions stored without it. The vector index is in memory in
// both cases.
func openMemory(ctx context.Context, cfg Config, db store.Store, blobs blob.Store, clock cairn.Clock) (*memory.Service, error) {
	var idx *memory.Index // nil: the store searches (PostgreSQL), shared by every instance
	if _, ok := store.SearchOf(db); !ok {
		var err error
		if idx, err = memory.NewIndex(filepath.Join(cfg.DataDir, "memory-index")); err != nil {
			return nil, err
		}
	}
	closeIdx := func() {
		if idx != nil {
			_ = idx.Close()
		}
	}
	var emb *memory.Embedder // the flags are checked by Config.Validate
	if cfg.EmbedderURL != "" {
		emb = &memory.Embedder{URL: cfg.EmbedderURL, Model: cfg.EmbedderModel}
	}
	vecs := vector.New(vector.Config{Threshold: cfg.VectorHNSWThreshold})
	svc := &memory.Service{Embedder: emb, Store: db, Audit: db, Blobs: blobs, Index: idx, Vectors: vecs, Secrets: &memory.Secrets{}, Clock: clock}
	if _, err := svc.Rebuild(ctx); err != nil {
		vecs.Close()
		closeIdx()
		return nil, fmt.Errorf("memory search index: %w", err)
	}
	return svc, nil
}
