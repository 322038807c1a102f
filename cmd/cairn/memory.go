package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
	"github.com/cairn-dev/cairn/memory"
	"github.com/cairn-dev/cairn/store/pebble"
)

// openMemory builds the memory service over the embedded store and the blob
// store, and fills its search index (derived state under
// <data-dir>/memory-index, rebuilt at every start) from the store before
// serving.
func openMemory(ctx context.Context, dataDir string, db *pebble.DB, blobs blob.Store, clock cairn.Clock) (*memory.Service, error) {
	idx, err := memory.NewIndex(filepath.Join(dataDir, "memory-index"))
	if err != nil {
		return nil, err
	}
	svc := &memory.Service{Store: db, Audit: db, Blobs: blobs, Index: idx, Vectors: memory.NewVectors(), Secrets: &memory.Secrets{}, Clock: clock}
	if _, err := svc.Rebuild(ctx); err != nil {
		_ = idx.Close()
		return nil, fmt.Errorf("memory search index: %w", err)
	}
	return svc, nil
}
