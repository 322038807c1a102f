package ingest

import (
	"context"
	"fmt"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/screening"
)

// Restore installs the last stored list version without fetching anything,
// so that a restart serves the list it had, even when every source is
// unreachable. It reports false when the store holds no version (or
// Store is nil). The rebuilt tree must reproduce the stored root.
func (p *Pipeline) Restore(ctx context.Context) (bool, error) {
	p.run.Lock()
	defer p.run.Unlock()
	return p.restore(ctx, false, false)
}

// Sync installs the last stored list version when it is newer than the
// installed one: the version another process sharing the store committed
// (a scheduled ingestion, a community escalation). It reports whether a
// version was installed; an equal or older stored version changes
// nothing.
func (p *Pipeline) Sync(ctx context.Context) (bool, error) {
	p.run.Lock()
	defer p.run.Unlock()
	return p.restore(ctx, true, false)
}

// restore installs the last stored version; p.run is held. newer: only
// when it is newer than the installed version. keepSources: the sources'
// listings and snapshots stay as they are (a run's fresh fetch, which the
// next version is built from); only the version, its listings and the
// index move to the stored ones.
func (p *Pipeline) restore(ctx context.Context, newer, keepSources bool) (bool, error) {
	if p.Store == nil {
		return false, nil
	}
	v, err := p.Store.LastListVersion(ctx)
	if cairn.IsCode(err, cairn.ENOTFOUND) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	p.mu.Lock()
	installed := p.version
	p.mu.Unlock()
	if newer && v.Version <= installed {
		return false, nil
	}
	// community listings under SourceCommunity; each builder made room for
	// the entries its source had (the stored entries come in key order, so
	// that Sorted below neither sorts nor copies them).
	builders := map[string]*screening.ListingsBuilder{}
	for name, sv := range v.Sources {
		builders[name] = &screening.ListingsBuilder{}
		builders[name].Grow(sv.Entries)
	}
	if err := p.Store.ListEntries(ctx, func(e cairn.ListEntry) error {
		b := builders[e.Source]
		if b == nil {
			b = &screening.ListingsBuilder{}
			builders[e.Source] = b
		}
		b.Add(screening.Family(e.Family), e.Address, screening.Match{EntityID: e.EntityID, EntityName: e.EntityName,
			Programs: e.Programs, Source: e.Source, Category: e.Category, Severity: e.Severity})
		return nil
	}); err != nil {
		return false, fmt.Errorf("restore list entries: %w", err)
	}
	bySource := make(map[string]*screening.Listings, len(builders))
	for name, b := range builders { // in key order: Sorted checks it, and sorts only if not
		if b.Len() == 0 { // a source without entries has no listings
			continue
		}
		if bySource[name], err = b.Sorted(); err != nil {
			return false, err
		}
	}
	ix, err := screening.BuildFrom(v.Version, v.BuiltAt, inSourceOrder(bySource)...)
	if err != nil {
		return false, err
	}
	if err := checkRoots(v, ix, bySource[screening.SourceCommunity].Len()); err != nil {
		return false, err
	}
	ix.Snapshots = map[string]screening.Snapshot{}
	p.mu.Lock()
	p.version, p.last, p.lastIx = v.Version, bySource, ix
	for name, sv := range v.Sources {
		if name == screening.SourceCommunity {
			continue
		}
		snap := Snapshot{BlobName: sv.BlobName, StorageURL: sv.StorageURL, SHA256: sv.SHA256, FetchedAt: sv.FetchedAt,
			Bundled: sv.Bundled, SourceSHA256: sv.SourceSHA256, SnapshotDate: sv.SnapshotDate}
		if sv.BlobName != "" {
			ix.Snapshots[name] = snap
		}
		if keepSources {
			continue
		}
		st := p.stateOf(name)
		st.Listings, st.Snapshot, st.ParserVersion = bySource[name], snap, sv.ParserVersion
		st.IngestAt, st.Entries, st.LastError, st.FailedAt = sv.FetchedAt, st.Listings.Len(), RedactText(sv.LastError), sv.FailedAt
	}
	p.mu.Unlock()
	p.Holder.Swap(ix)
	releaseMemory(ix.Len())
	p.logger().Info("list version restored", "version", v.Version, "root", v.Root, "leaves", ix.Len())
	return true, nil
}

// checkRoots compares the rebuilt trees with the stored version's roots. A
// version stored before the community tree existed has one root over
// every source: it equals the sanctions root when the version has no
// community entries, and cannot be checked otherwise (the rebuilt version
// serves the two trees from now on).
func checkRoots(v cairn.ListVersion, ix *screening.Index, community int) error {
	got, gotCommunity := rootHex(ix), communityRootHex(ix)
	switch {
	case v.SanctionsRoot != "":
		if got != v.SanctionsRoot || gotCommunity != v.CommunityRoot {
			return fmt.Errorf("restore list version %d: roots %s and %s, stored %s and %s", v.Version, got, gotCommunity,
				v.SanctionsRoot, v.CommunityRoot)
		}
	case community == 0 && got != v.Root:
		return fmt.Errorf("restore list version %d: root %s, stored %s", v.Version, got, v.Root)
	}
	// Versions stored before the exclusion trees existed name none; the
	// rebuilt version serves them from now on.
	if v.ExclusionRoot != "" && (ix.ExclusionRoot().String() != v.ExclusionRoot || ix.CommunityExclusionRoot().String() != v.CommunityExclusionRoot) {
		return fmt.Errorf("restore list version %d: exclusion roots %s and %s, stored %s and %s", v.Version, ix.ExclusionRoot(),
			ix.CommunityExclusionRoot(), v.ExclusionRoot, v.CommunityExclusionRoot)
	}
	return nil
}

// History returns the listing history of an address, oldest first (empty
// without a store).
func (p *Pipeline) History(ctx context.Context, f screening.Family, canonical string) ([]cairn.ListChange, error) {
	if p.Store == nil {
		return []cairn.ListChange{}, nil
	}
	return p.Store.AddressHistory(ctx, string(f), canonical)
}

// Versions returns up to limit list version headers older than before
// (0: the newest first).
func (p *Pipeline) Versions(ctx context.Context, before uint64, limit int) ([]cairn.ListVersion, error) {
	if p.Store == nil {
		return []cairn.ListVersion{}, nil
	}
	vs, err := p.Store.ListVersions(ctx, before, limit)
	for _, v := range vs {
		for name, sv := range v.Sources { // a failure stored by an earlier release may name a raw URL
			sv.LastError = RedactText(sv.LastError)
			v.Sources[name] = sv
		}
	}
	return vs, err
}

// VersionChanges returns up to limit of the changes list version v made,
// after the first offset (store.Compliance.VersionChanges); ENOTFOUND
// without a store.
func (p *Pipeline) VersionChanges(ctx context.Context, v uint64, offset, limit int) ([]cairn.ListChange, error) {
	if p.Store == nil {
		return nil, cairn.Errorf(cairn.ENOTFOUND, "No list version %d.", v)
	}
	return p.Store.VersionChanges(ctx, v, offset, limit)
}
