package ingest

import (
	"context"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/screening"
)

// compareListings orders listings by (family, address, source, entity),
// the identity of a listing and the order of the store's entries.
// The comparisons run one after another, each only on a tie, since this
// orders a million listings per version.
func compareListings(a, b screening.Listing) int {
	if c := strings.Compare(string(a.Family), string(b.Family)); c != 0 {
		return c
	}
	if c := strings.Compare(a.Address, b.Address); c != 0 {
		return c
	}
	if c := strings.Compare(a.Source, b.Source); c != 0 {
		return c
	}
	return strings.Compare(a.EntityID, b.EntityID)
}

// sortListings sorts ls by key and drops repeated keys (an address listed
// under two tickers of one entity is one listing).
func sortListings(ls []screening.Listing) []screening.Listing {
	slices.SortFunc(ls, compareListings)
	return slices.CompactFunc(ls, func(a, b screening.Listing) bool { return compareListings(a, b) == 0 })
}

// diffListings returns the listings of next not in prev (added) and of
// prev not in next (removed); both inputs are sorted by key.
func diffListings(prev, next []screening.Listing) (added, removed []screening.Listing) {
	switch { // the first version, and a list emptied: nothing to compare
	case len(prev) == 0:
		return next, nil
	case len(next) == 0:
		return nil, prev
	}
	i, j := 0, 0
	for i < len(prev) || j < len(next) {
		var c int
		switch {
		case i == len(prev):
			c = 1
		case j == len(next):
			c = -1
		default:
			c = compareListings(prev[i], next[j])
		}
		switch {
		case c < 0:
			removed = append(removed, prev[i])
			i++
		case c > 0:
			added = append(added, next[j])
			j++
		default:
			i++
			j++
		}
	}
	return added, removed
}

func toEntry(l screening.Listing) cairn.ListEntry {
	return cairn.ListEntry{Family: string(l.Family), Address: l.Address, Source: l.Source, EntityID: l.EntityID,
		EntityName: l.EntityName, Category: l.Category, Severity: l.Severity}
}

func toEntries(ls []screening.Listing) []cairn.ListEntry {
	out := make([]cairn.ListEntry, len(ls))
	for i, l := range ls {
		out[i] = toEntry(l)
	}
	return out
}

func fromEntry(e cairn.ListEntry) screening.Listing {
	return screening.Listing{Family: screening.Family(e.Family), Address: e.Address, Match: screening.Match{
		EntityID: e.EntityID, EntityName: e.EntityName, Source: e.Source, Category: e.Category, Severity: e.Severity}}
}

func rootHex(ix *screening.Index) string {
	r := ix.Root()
	return "0x" + hex.EncodeToString(r[:])
}

func communityRootHex(ix *screening.Index) string {
	r := ix.CommunityRoot()
	return "0x" + hex.EncodeToString(r[:])
}

// rebuild makes, stores and installs the next list version from the
// sources' current listings and the community listings. The version is
// committed to the store before it is served, so every listVersion a
// client sees can be found again. p.run is held.
func (p *Pipeline) rebuild(ctx context.Context) (*screening.Index, cairn.ListVersion, error) {
	var all []screening.Listing
	community := 0
	if p.Community != nil {
		c, err := p.Community(ctx)
		if err != nil {
			return nil, cairn.ListVersion{}, fmt.Errorf("community listings: %w", err)
		}
		all, community = append(all, c...), len(c)
	}
	p.mu.Lock()
	v := cairn.ListVersion{Version: p.version + 1, BuiltAt: p.Clock.Now(), Sources: map[string]cairn.SourceVersion{}}
	snaps := map[string]screening.Snapshot{}
	for name, st := range p.state {
		all = append(all, st.Listings...)
		if st.Snapshot.BlobName != "" {
			snaps[name] = st.Snapshot
		}
		v.Sources[name] = cairn.SourceVersion{BlobName: st.Snapshot.BlobName, StorageURL: st.Snapshot.StorageURL,
			SHA256: st.Snapshot.SHA256, FetchedAt: st.Snapshot.FetchedAt, Entries: len(st.Listings),
			LastError: st.LastError, FailedAt: st.FailedAt, Bundled: st.Snapshot.Bundled,
			SourceSHA256: st.Snapshot.SourceSHA256, SnapshotDate: st.Snapshot.SnapshotDate}
	}
	prev := p.last
	p.mu.Unlock()
	if community > 0 {
		v.Sources[screening.SourceCommunity] = cairn.SourceVersion{Entries: community}
	}
	all = sortListings(all)
	ix, err := screening.Build(v.Version, v.BuiltAt, all)
	if err != nil {
		return nil, v, err
	}
	ix.Snapshots = snaps
	added, removed := diffListings(prev, all)
	v.Root, v.SanctionsRoot, v.CommunityRoot = rootHex(ix), rootHex(ix), communityRootHex(ix)
	v.Leaves, v.CommunityLeaves = ix.Leaves()
	v.Entries, v.Added, v.Removed = len(all), len(added), len(removed)
	if p.Store != nil {
		if err := p.Store.CommitListVersion(ctx, v, toEntries(added), toEntries(removed)); err != nil {
			return nil, v, fmt.Errorf("store list version %d: %w", v.Version, err)
		}
	}
	p.mu.Lock()
	p.version, p.last = v.Version, all
	p.mu.Unlock()
	p.Holder.Swap(ix)
	if p.OnVersion != nil {
		p.OnVersion(ctx, v)
	}
	p.logger().Info("list version installed", "version", v.Version, "root", v.Root, "leaves", v.Leaves,
		"communityRoot", v.CommunityRoot, "communityLeaves", v.CommunityLeaves,
		"added", v.Added, "removed", v.Removed)
	return ix, v, nil
}
