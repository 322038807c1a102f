package ingest

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"maps"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/screening"
	"github.com/cairn-dev/cairn/store"
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
//
// A listing is 112 bytes and its key starts with two strings, so sorting
// the listings themselves moves 112 bytes per swap and follows two string
// pointers per comparison. Instead the sort orders small fixed-size keys
// (the family's rank and the address's first 14 bytes, which tell almost
// every pair of listings apart) with the listing's position, falls back to
// compareListings only on a tie, and then moves each listing once, in
// place, along the cycles of the permutation.
func sortListings(ls []screening.Listing) []screening.Listing {
	keys := listingKeys(ls)
	slices.SortFunc(keys, func(a, b listingKey) int {
		if a.hi != b.hi {
			return cmpUint(a.hi, b.hi)
		}
		if a.lo != b.lo {
			return cmpUint(a.lo, b.lo)
		}
		return compareListings(ls[a.at], ls[b.at])
	})
	for i := range keys { // ls[i] = old ls[keys[i].at], one cycle at a time
		if int(keys[i].at) == i {
			continue
		}
		first, j := ls[i], i
		for {
			k := int(keys[j].at)
			keys[j].at = uint32(j)
			if k == i {
				ls[j] = first
				break
			}
			ls[j], j = ls[k], k
		}
	}
	return slices.CompactFunc(ls, func(a, b screening.Listing) bool { return compareListings(a, b) == 0 })
}

// listingKey is a listing's sort key: hi is the rank of its family (16 bits)
// and the first 6 bytes of its address, lo the next 8 bytes, both
// big-endian and zero-padded, so that a < b as keys implies a < b as
// listings (equal keys leave the order to compareListings); at is the
// listing's position.
type listingKey struct {
	hi, lo uint64
	at     uint32
}

func listingKeys(ls []screening.Listing) []listingKey {
	var fams []screening.Family
	for i := range ls {
		if !slices.Contains(fams, ls[i].Family) {
			fams = append(fams, ls[i].Family)
		}
	}
	slices.Sort(fams)
	rank := make(map[screening.Family]uint64, len(fams))
	for i, f := range fams {
		rank[f] = uint64(i)
	}
	keys := make([]listingKey, len(ls))
	var b [14]byte
	for i := range ls {
		b = [14]byte{}
		copy(b[:], ls[i].Address)
		keys[i] = listingKey{at: uint32(i),
			hi: rank[ls[i].Family]<<48 | uint64(b[0])<<40 | uint64(b[1])<<32 | uint64(b[2])<<24 | uint64(b[3])<<16 | uint64(b[4])<<8 | uint64(b[5]),
			lo: binary.BigEndian.Uint64(b[6:]),
		}
	}
	return keys
}

func cmpUint(a, b uint64) int {
	if a < b {
		return -1
	}
	return 1
}

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
func inSourceOrder(groups map[string][]screening.Listing) [][]screening.Listing {
	out := make([][]screening.Listing, 0, len(groups))
	for _, name := range slices.Sorted(maps.Keys(groups)) {
		out = append(out, groups[name])
	}
	return out
}

func countListings(groups map[string][]screening.Listing) int {
	n := 0
	for _, g := range groups {
		n += len(g)
	}
	return n
}

// diffGroups returns the listings of next not in prev (added) and of prev
// not in next (removed), source by source: a listing's source is part of its
// key, so the sources' diffs are the version's. An unchanged source costs
// one comparison of its slice (a source's listings are replaced, never
// edited, so the same slice means the same listings). The store orders
// the entries it is given, so the result is in source order.
func diffGroups(prev, next map[string][]screening.Listing) (added, removed []screening.Listing) {
	var adds, rems [][]screening.Listing
	for _, name := range slices.Sorted(maps.Keys(unionKeys(prev, next))) {
		p, n := prev[name], next[name]
		if len(p) == len(n) && (len(p) == 0 || &p[0] == &n[0]) {
			continue
		}
		a, r := diffListings(p, n)
		adds, rems = append(adds, a), append(rems, r)
	}
	return concatListings(adds), concatListings(rems)
}

func unionKeys(a, b map[string][]screening.Listing) map[string]bool {
	out := make(map[string]bool, len(a)+len(b))
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// concatListings joins the parts, without a copy when only one has
// listings (the first version of a single source: a million listings).
func concatListings(parts [][]screening.Listing) []screening.Listing {
	var nonEmpty [][]screening.Listing
	for _, p := range parts {
		if len(p) > 0 {
			nonEmpty = append(nonEmpty, p)
		}
	}
	if len(nonEmpty) == 1 {
		return nonEmpty[0]
	}
	return slices.Concat(nonEmpty...)
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
	groups := map[string][]screening.Listing{} // by source, each sorted by key
	if p.Community != nil {
		c, err := p.Community(ctx)
		if err != nil {
			return nil, cairn.ListVersion{}, fmt.Errorf("community listings: %w", err)
		}
		if len(c) > 0 {
			groups[screening.SourceCommunity] = sortListings(slices.Clone(c))
		}
	}
	p.mu.Lock()
	v := cairn.ListVersion{Version: p.version + 1, BuiltAt: p.Clock.Now(), Sources: map[string]cairn.SourceVersion{}}
	snaps := map[string]screening.Snapshot{}
	for name, st := range p.state {
		if len(st.Listings) > 0 {
			groups[name] = st.Listings
		}
		if st.Snapshot.BlobName != "" {
			snaps[name] = st.Snapshot
		}
		v.Sources[name] = cairn.SourceVersion{BlobName: st.Snapshot.BlobName, StorageURL: st.Snapshot.StorageURL,
			SHA256: st.Snapshot.SHA256, FetchedAt: st.Snapshot.FetchedAt, Entries: len(st.Listings),
			LastError: st.LastError, FailedAt: st.FailedAt, Bundled: st.Snapshot.Bundled,
			SourceSHA256: st.Snapshot.SourceSHA256, SnapshotDate: st.Snapshot.SnapshotDate}
	}
	prev, prevIx := p.last, p.lastIx
	unchanged := keepUnchanged(groups, prev, p.state)
	p.mu.Unlock()
	if c := len(groups[screening.SourceCommunity]); c > 0 {
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
		ix, err = screening.Build(v.Version, v.BuiltAt, inSourceOrder(groups)...)
	}
	<-staging
	if err != nil {
		st.discard()
		return nil, v, err
	}
	ix.Snapshots = snaps
	v.Root, v.SanctionsRoot, v.CommunityRoot = rootHex(ix), rootHex(ix), communityRootHex(ix)
	v.Leaves, v.CommunityLeaves = ix.Leaves()
	v.Entries, v.Added, v.Removed = countListings(groups), st.added, st.removed
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
		"added", v.Added, "removed", v.Removed)
	return ix, v, nil
}

// staged is a version's diff, ready to be committed: converted to store
// entries and, when the store is a store.ListVersionPreparer, already
// merged into its batch.
type staged struct {
	added, removed   int
	prep             store.PreparedListVersion // nil: commit with CommitListVersion
	addedE, removedE []cairn.ListEntry
	err              error
}

// stage diffs next against prev and prepares the store's commit.
func (p *Pipeline) stage(ctx context.Context, v cairn.ListVersion, prev, next map[string][]screening.Listing) *staged {
	added, removed := diffGroups(prev, next)
	st := &staged{added: len(added), removed: len(removed)}
	if p.Store == nil {
		return st
	}
	st.addedE, st.removedE = toEntries(added), toEntries(removed)
	if pr, ok := p.Store.(store.ListVersionPreparer); ok {
		st.prep, st.err = pr.PrepareListVersion(ctx, v.Version, v.BuiltAt, st.addedE, st.removedE)
		st.addedE, st.removedE = nil, nil
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
// source in prev by prev's slice, in groups and in the source's state, so
// that a source ingested again without a change (a restart's ingestion, or
// a schedule between two publications) keeps one copy of its listings and
// its diff is the one comparison of diffGroups. It reports whether every
// group, and the set of groups, is as in prev. p.mu is held.
func keepUnchanged(groups, prev map[string][]screening.Listing, state map[string]*SourceState) bool {
	same := len(groups) == len(prev)
	for name, g := range groups {
		pg, ok := prev[name]
		if !ok || !slices.Equal(g, pg) {
			same = false
			continue
		}
		groups[name] = pg
		if st := state[name]; st != nil && len(st.Listings) > 0 {
			st.Listings = pg
		}
	}
	return same
}
