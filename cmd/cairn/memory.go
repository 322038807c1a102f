package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
	"github.com/cairn-dev/cairn/memory"
	"github.com/cairn-dev/cairn/store"
)

// memoryStore holds memory records and the audit log their writes append
// to and their reads are listed from.
type memoryStore interface {
	store.Memories
	store.Audit
}

// openMemory builds the memory service over db (the shared store: Postgres
// with --store postgres://..., else the embedded store) and the blob store, and fills its search index (derived state under
// <data-dir>/memory-index, rebuilt at every start) from the store before
// serving.
func openMemory(ctx context.Context, cfg Config, db memoryStore, blobs blob.Store, clock cairn.Clock) (*memory.Service, error) {
	idx, err := memory.NewIndex(filepath.Join(cfg.DataDir, "memory-index"))
	if err != nil {
		return nil, err
	}
	var emb *memory.Embedder
	if cfg.EmbedderURL != "" {
		if cfg.EmbedderModel == "" {
			_ = idx.Close()
			return nil, fmt.Errorf("--embedder-url needs --embedder-model")
		}
		emb = &memory.Embedder{URL: cfg.EmbedderURL, Model: cfg.EmbedderModel}
	}
	if cfg.VectorHNSWThreshold < 0 {
		_ = idx.Close()
		return nil, fmt.Errorf("--vector-hnsw-threshold must be 0 or more")
	}
	vecs := memory.NewVectorsHNSW(memory.HNSWConfig{Threshold: cfg.VectorHNSWThreshold})
	svc := &memory.Service{Embedder: emb, Store: db, Audit: db, Blobs: blobs, Index: idx, Vectors: vecs, Secrets: &memory.Secrets{}, Clock: clock}
	if _, err := svc.Rebuild(ctx); err != nil {
		vecs.Close()
		_ = idx.Close()
		return nil, fmt.Errorf("memory search index: %w", err)
	}
	return svc, nil
}
