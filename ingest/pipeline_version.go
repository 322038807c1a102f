package ingest

import (
	"context"
	"encoding/hex"
	"fmt"
	"maps"
	"runtime/debug"
	"slices"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/screening"
	"github.com/cairn-dev/cairn/store"
)

// largeVersion is the size of a list version from which building it
// leaves enough garbage (parse buffers, sort keys, the diff's entries, the
// previous index) to be worth returning to the system at once.
const largeVersion = 100_000

// releaseMemory runs a garbage collection and returns the freed memory to
// the system after a large version is installed. Without it, the process
// keeps the peak of the build (about twice the live heap) until the
// runtime's background scavenger gets to it; the cost is one collection per
// version, off the request path and, since it runs in the background, off
// the path to a served version at start (0.2 s at 1M addresses).
func releaseMemory(entries int) {
	if entries >= largeVersion {
		go debug.FreeOSMemory()
	}
}

// inSourceOrder returns the groups ordered by source name: the order of an
// address's matches, as when every listing was sorted by key.
func inSourceOrder(groups map[string]*screening.Listings) []*screening.Listings {
	out := make([]*screening.Listings, 0, len(groups))
	for _, name := range slices.Sorted(maps.Keys(groups)) {
		out = append(out, groups[name])
	}
	return out
}

func countListings(groups map[string]*screening.Listings) int {
	n := 0
	for _, g := range groups {
		n += g.Len()
	}
	return n
}

// diffGroups returns the listings of next not in prev or in prev with
// other details (added; changed counts the latter) and of prev not in next
// (removed), source by source: a listing's source is part of its key, so
// the sources' diffs are the version's. A listing whose details (entity
// name, programs, category, severity) changed is stored again, as an
// addition the store applies to the current entry; it is no new listing.
// An unchanged source
// costs one pointer comparison (a source's listings are replaced, never
// edited, so the same Listings means the same listings). Each result is
// in key order and read as store entries by position, without a copy of
// the listings: the first version of a list of ten million would
// otherwise be 1.6 GB of ListEntry values and address strings.
func diffGroups(prev, next map[string]*screening.Listings) (added, removed *listingEntries, changed int) {
	added, removed = &listingEntries{}, &listingEntries{}
	for _, name := range slices.Sorted(maps.Keys(unionKeys(prev, next))) {
		p, n := prev[name], next[name]
		if p == n {
			continue
		}
		a, r, c := diffListings(p, n)
		added.add(n, a)
		removed.add(p, r)
		changed += c
	}
	added.sort()
	removed.sort()
	return added, removed, changed
}

// listingEntries is listings of one or more sources as store.Entries, in
// key order.
type listingEntries struct {
	groups []*screening.Listings
	refs   []listingRef // nil: all of groups[0], in order
}

// listingRef is a listing: a group and a position in it.
type listingRef struct{ g, i int32 }

// add adds the listings of l at the positions at (all of l when at is
// nil).
func (e *listingEntries) add(l *screening.Listings, at []int32) {
	if l.Len() == 0 || (at != nil && len(at) == 0) {
		return
	}
	if len(e.groups) == 1 && e.refs == nil { // all of the first group so far
		e.refs = make([]listingRef, e.groups[0].Len())
		for i := range e.refs {
			e.refs[i] = listingRef{0, int32(i)}
		}
	}
	g := int32(len(e.groups))
	e.groups = append(e.groups, l)
	switch {
	case at == nil && g == 0:
	case at == nil:
		for i := range l.Len() {
			e.refs = append(e.refs, listingRef{g, int32(i)})
		}
	default:
		for _, i := range at {
			e.refs = append(e.refs, listingRef{g, i})
		}
	}
}

// sort puts the listings of several groups in key order (each group's are
// already).
func (e *listingEntries) sort() {
	if len(e.groups) > 1 {
		slices.SortFunc(e.refs, func(a, b listingRef) int {
			return e.groups[a.g].Compare(int(a.i), e.groups[b.g], int(b.i))
		})
	}
}

// Len is the number of listings.
func (e *listingEntries) Len() int {
	switch {
	case e.refs != nil:
		return len(e.refs)
	case len(e.groups) == 1:
		return e.groups[0].Len()
	}
	return 0
}

// At returns listing i as a store entry.
func (e *listingEntries) At(i int) cairn.ListEntry {
	if e.refs == nil {
		return toEntry(e.groups[0].At(i))
	}
	r := e.refs[i]
	return toEntry(e.groups[r.g].At(int(r.i)))
}

// slice returns the entries as a slice.
func (e *listingEntries) slice() []cairn.ListEntry {
	out := make([]cairn.ListEntry, e.Len())
	for i := range out {
		out[i] = e.At(i)
	}
	return out
}

func unionKeys(a, b map[string]*screening.Listings) map[string]bool {
	out := make(map[string]bool, len(a)+len(b))
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// diffListings returns the positions of the listings of next not in prev
// or in prev with another match (added; changed counts the latter) and of
// those of prev not in next (removed), nil for all of them; both are
// sorted by key.
func diffListings(prev, next *screening.Listings) (added, removed []int32, changed int) {
	switch {
	case prev.Len() == 0:
		return nil, []int32{}, 0
	case next.Len() == 0:
		return []int32{}, nil, 0
	}
	added, removed = []int32{}, []int32{}
	i, j := 0, 0
	for i < prev.Len() || j < next.Len() {
		var c int
		switch {
		case i == prev.Len():
			c = 1
		case j == next.Len():
			c = -1
		default:
			c = prev.Compare(i, next, j)
		}
		switch {
		case c < 0:
			removed = append(removed, int32(i))
			i++
		case c > 0:
			added = append(added, int32(j))
			j++
		default:
			if prev.MatchAt(i) != next.MatchAt(j) { // the same listing, new details
				added = append(added, int32(j))
				changed++
			}
			i++
			j++
		}
	}
	return added, removed, changed
}

func toEntry(l screening.Listing) cairn.ListEntry {
	return cairn.ListEntry{Family: string(l.Family), Address: l.Address, Source: l.Source, EntityID: l.EntityID,
		EntityName: l.EntityName, Programs: l.Programs, Category: l.Category, Severity: l.Severity}
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
	groups := map[string]*screening.Listings{} // by source, each sorted by key
	if p.Community != nil {
		c, err := p.Community(ctx)
		if err != nil {
			return nil, cairn.ListVersion{}, fmt.Errorf("community listings: %w", err)
		}
		if len(c) > 0 {
			if groups[screening.SourceCommunity], err = screening.NewListings(c); err != nil {
				return nil, cairn.ListVersion{}, err
			}
		}
	}
	p.mu.Lock()
	v := cairn.ListVersion{Version: p.version + 1, BuiltAt: p.Clock.Now(), Sources: map[string]cairn.SourceVersion{}}
	snaps := map[string]screening.Snapshot{}
	for name, st := range p.state {
		if st.Listings.Len() > 0 {
			groups[name] = st.Listings
		}
		if st.Snapshot.BlobName != "" {
			snaps[name] = st.Snapshot
		}
		v.Sources[name] = cairn.SourceVersion{BlobName: st.Snapshot.BlobName, StorageURL: st.Snapshot.StorageURL,
			SHA256: st.Snapshot.SHA256, FetchedAt: st.Snapshot.FetchedAt, Entries: st.Listings.Len(),
			LastError: st.LastError, FailedAt: st.FailedAt, Bundled: st.Snapshot.Bundled,
			SourceSHA256: st.Snapshot.SourceSHA256, SnapshotDate: st.Snapshot.SnapshotDate, ParserVersion: st.ParserVersion}
	}
	prev, prevIx := p.last, p.lastIx
	unchanged := keepUnchanged(groups, prev, p.state)
	p.mu.Unlock()
	if c := groups[screening.SourceCommunity].Len(); c > 0 {
		v.Sources[screening.SourceCommunity] = cairn.SourceVersion{Entries: c}
	}
	// The diff is worked out, converted to store entries and, when the
	// store can, merged into its batch while the index and trees are built
	// (for a million entries of a first version, about a second).
	var st *staged
	staging := make(chan struct{})
	go func() { defer close(staging); st = p.stage(ctx, v, prev, groups) }()
	var ix *screening.Index
	var err error
	if unchanged && prevIx != nil {
		// The same listings as the installed version: its index and trees
		// are this version's too (an index is immutable), renumbered.
		ix = prevIx.Renumbered(v.Version, v.BuiltAt)
	} else {
		ix, err = screening.BuildFrom(v.Version, v.BuiltAt, inSourceOrder(groups)...)
	}
	<-staging
	if err != nil {
		st.discard()
		return nil, v, err
	}
	ix.Snapshots = snaps
	v.Root, v.SanctionsRoot, v.CommunityRoot = rootHex(ix), rootHex(ix), communityRootHex(ix)
	v.ExclusionRoot, v.CommunityExclusionRoot = ix.ExclusionRoot().String(), ix.CommunityExclusionRoot().String()
	v.Leaves, v.CommunityLeaves = ix.Leaves()
	v.Entries, v.Added, v.Removed = countListings(groups), st.added, st.removed
	changed := st.changed
	if err := p.commitStaged(ctx, st, v); err != nil {
		return nil, v, fmt.Errorf("store list version %d: %w", v.Version, err)
	}
	p.mu.Lock()
	p.version, p.last, p.lastIx = v.Version, groups, ix
	p.mu.Unlock()
	p.Holder.Swap(ix)
	st = nil
	releaseMemory(v.Entries)
	if p.OnVersion != nil {
		p.OnVersion(ctx, v)
	}
	p.logger().Info("list version installed", "version", v.Version, "root", v.Root, "leaves", v.Leaves,
		"communityRoot", v.CommunityRoot, "communityLeaves", v.CommunityLeaves,
		"added", v.Added, "removed", v.Removed, "changed", changed)
	return ix, v, nil
}

// staged is a version's diff, ready to be committed: when the store is a
// store.ListVersionPreparer, already merged into its batch; else as store
// entries.
type staged struct {
	added, removed   int                       // listings new and gone (as the store counts them)
	changed          int                       // listings with new details, stored as additions
	prep             store.PreparedListVersion // nil: commit with CommitListVersion
	addedE, removedE []cairn.ListEntry
	err              error
}

// stage diffs next against prev and prepares the store's commit.
func (p *Pipeline) stage(ctx context.Context, v cairn.ListVersion, prev, next map[string]*screening.Listings) *staged {
	added, removed, changed := diffGroups(prev, next)
	st := &staged{added: added.Len() - changed, removed: removed.Len(), changed: changed}
	if p.Store == nil {
		return st
	}
	if pr, ok := store.PreparerOf(p.Store); ok {
		st.prep, st.err = pr.PrepareListVersion(ctx, v.Version, v.BuiltAt, added, removed)
	} else {
		st.addedE, st.removedE = added.slice(), removed.slice()
	}
	return st
}

// commitStaged stores the version with header v.
func (p *Pipeline) commitStaged(ctx context.Context, st *staged, v cairn.ListVersion) error {
	switch {
	case p.Store == nil:
		return nil
	case st.err != nil:
		return st.err
	case st.prep != nil:
		return st.prep.Commit(ctx, v)
	}
	return p.Store.CommitListVersion(ctx, v, st.addedE, st.removedE)
}

// discard releases a prepared version that will not be committed.
func (st *staged) discard() {
	if st.prep != nil {
		st.prep.Discard()
	}
}

// keepUnchanged replaces each group whose listings equal those of the same
// source in prev by prev's, in groups and in the source's state, so
// that a source ingested again without a change (a restart's ingestion, or
// a schedule between two publications) keeps one copy of its listings and
// its diff is the one comparison of diffGroups. It reports whether every
// group, and the set of groups, is as in prev. p.mu is held.
func keepUnchanged(groups, prev map[string]*screening.Listings, state map[string]*SourceState) bool {
	same := len(groups) == len(prev)
	for name, g := range groups {
		pg, ok := prev[name]
		if !ok || !g.Equal(pg) {
			same = false
			continue
		}
		groups[name] = pg
		if st := state[name]; st != nil && st.Listings.Len() > 0 {
			st.Listings = pg
		}
	}
	return same
}
