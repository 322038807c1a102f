package ingest

import (
	"bytes"
	"context"
	"fmt"

	"github.com/cairn-dev/cairn/screening"
)

// InstallBundled installs the snapshot built into the binary as the
// gov_sdn source of the next list version, without fetching anything: a
// data dir with no stored version and no configured source screens
// against it from the first request. The embedded file is stored in the
// blob store like any raw source, and its snapshot carries the published
// file's digest and date and is marked bundled, in the list version, the
// stats and every screening proof, so that it is never taken for live
// data. A later run of a configured gov_sdn source replaces it; a failed
// run keeps it.
func (p *Pipeline) InstallBundled(ctx context.Context, b *Bundled) (*Result, error) {
	p.run.Lock()
	defer p.run.Unlock()
	var lb screening.ListingsBuilder
	lr := newLister(SourceGovSDN)
	if err := b.Records(func(r Record) error {
		lr.add(&lb, r)
		return nil
	}); err != nil {
		return nil, fmt.Errorf("bundled snapshot %s: %w", b.Name, err)
	}
	if lb.Len() == 0 {
		return nil, fmt.Errorf("bundled snapshot %s: no listed address", b.Name)
	}
	sum := b.SHA256()
	name := "snapshots/" + sum
	if _, err := p.Blobs.Stat(ctx, name); err != nil {
		if err := p.putSnapshot(ctx, name, bytes.NewReader(b.Data), "application/gzip"); err != nil {
			return nil, fmt.Errorf("store the bundled snapshot: %w", err)
		}
	}
	snap := Snapshot{BlobName: name, StorageURL: p.Blobs.URL(name), SHA256: sum, FetchedAt: p.Clock.Now(),
		Bundled: true, SourceSHA256: b.Header.SHA256, SnapshotDate: b.Header.Date}
	listings, err := lb.Sorted()
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	st := p.stateOf(SourceGovSDN)
	st.Listings, st.Snapshot, st.IngestAt, st.Entries = listings, snap, snap.FetchedAt, listings.Len()
	p.mu.Unlock()
	ix, v, err := p.rebuild(ctx)
	if err != nil {
		return nil, err
	}
	p.logger().Warn("serving the BUNDLED OFAC SDN snapshot, not live data, until a configured source is ingested",
		"source", SourceGovSDN, "snapshot_date", b.Header.Date, "source_file", b.Header.SourceFile,
		"source_sha256", b.Header.SHA256, "entries", listings.Len(), "version", v.Version)
	return &Result{Version: ix.Version, Root: v.Root, Leaves: ix.Len(), Added: v.Added, Removed: v.Removed,
		Failures: map[string]string{}}, nil
}
