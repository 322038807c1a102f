package screening

import (
	"encoding/json"
	"slices"
	"sort"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/merkle"
	"github.com/cairn-dev/cairn/wire"
)

// Sources and the categories and severities their matches carry.
const (
	SourceGovSDN     = "gov_sdn"
	SourceAggregated = "aggregated_sanctions"
	SourceCommunity  = "community"
)

// Result statuses.
const (
	StatusSanctioned     = "sanctioned"      // listed by a sanctions source
	StatusFlagged        = "flagged"         // only community reports list it
	StatusClear          = "clear"           // not listed
	StatusInvalidAddress = "invalid_address" // not an address of the chain's family
)

// Match is one listing of an address.
type Match struct {
	EntityID   string `json:"entityId"`
	EntityName string `json:"entityName"`
	// Programs are the sanctions programs of the listing, as its source
	// names them (gov_sdn); written after entityName, and only when there
	// are some, so that a match without programs is the same bytes as
	// before they were kept.
	Programs cairn.Programs `json:"programs,omitempty"`
	Source   string         `json:"source"`
	Category string         `json:"category"`
	Severity string         `json:"severity"`
}

// MarshalJSON writes entityId and entityName as null when the source
// names no entity (a plain per-chain list), as spec 2.4 allows, rather
// than as empty strings, and programs only when there are some.
func (m Match) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 96+len(m.EntityName)+len(m.Programs))
	b = append(b, `{"entityId":`...)
	b = appendNullable(b, m.EntityID)
	b = append(b, `,"entityName":`...)
	b = appendNullable(b, m.EntityName)
	if m.Programs != "" {
		b = m.Programs.AppendJSON(append(b, `,"programs":`...))
	}
	for _, f := range [...][2]string{{"source", m.Source}, {"category", m.Category}, {"severity", m.Severity}} {
		b = append(append(append(b, ',', '"'), f[0]...), '"', ':')
		b = appendString(b, f[1])
	}
	return append(b, '}'), nil
}

func appendNullable(b []byte, s string) []byte {
	if s == "" {
		return append(b, "null"...)
	}
	return appendString(b, s)
}

// appendString appends s as a JSON string, escaped as encoding/json does.
func appendString(b []byte, s string) []byte {
	q, _ := json.Marshal(s)
	return append(b, q...)
}

// Listing is one listed address of a list version.
type Listing struct {
	Family  Family
	Address string // canonical
	Match
}

// Snapshot names the stored raw copy of a source that a list version was
// built from (spec 2.4 dataSnapshots).
type Snapshot = wire.Snapshot

// Classes of a listed address: which tree holds its leaf. A sanctions
// source (gov_sdn, aggregated_sanctions, list:<chain>: every source but
// the community one) puts it in the sanctions tree; a community escalation
// in the community tree. An address in both is of class sanctions.
const (
	ClassSanctions = "sanctions"
	ClassCommunity = "community"
)

// SanctionsSource reports whether a source's listings go to the sanctions
// tree: every source but the community one.
func SanctionsSource(source string) bool { return source != SourceCommunity }

// Index is an immutable list version: every listed address with its
// matches, two Merkle trees over (family, address) leaves: the sanctions
// tree (what the sanctions sources list) and the community tree (what
// community reports escalated), and for each of them an exclusion tree
// over the gaps between its addresses, which proves that an address is
// not in it. Lookups take no lock.
type Index struct {
	Version uint64
	BuiltAt time.Time
	Sources []string
	// Snapshots are the raw source copies of this version, by source name;
	// set by the builder before the index is installed, read-only after.
	Snapshots map[string]Snapshot
	entries   *entries
	tree      *merkle.Tree // sanctions; nil when empty
	community *merkle.Tree // nil when empty
	// exclusion and cexclusion are the exclusion trees of the sanctions
	// and the community class (index_exclusion.go); never nil.
	exclusion, cexclusion *exclusion
	// values and cvalues are the leaf values of tree and community, by
	// value index.
	values, cvalues leafValues
	bySource        map[string]int
}

// Renumbered returns the index as list version version, built at
// builtAt, for a version with the same listings: the entries, matches and
// trees are shared (an index is immutable); Snapshots are left for the
// builder to set.
func (ix *Index) Renumbered(version uint64, builtAt time.Time) *Index {
	c := *ix
	c.Version, c.BuiltAt, c.Snapshots = version, builtAt, nil
	return &c
}

// SharesEntries reports whether ix and other are one list version's
// index under two version numbers (one is Renumbered from the other).
func (ix *Index) SharesEntries(other *Index) bool {
	return other != nil && ix.entries == other.entries && ix.tree == other.tree && ix.community == other.community
}

// Build makes an index of the listings, given in one or more groups; see
// BuildFrom.
func Build(version uint64, builtAt time.Time, groups ...[]Listing) (*Index, error) {
	cs := make([]*Listings, len(groups))
	for i, g := range groups {
		var err error
		if cs[i], err = compact(g); err != nil {
			return nil, err
		}
	}
	return BuildFrom(version, builtAt, cs...)
}

// BuildFrom makes an index of the listings, given in one or more groups (a
// list version passes one group per source, so that it never copies them
// into one); an address's matches are in the order of the groups and of
// the listings within them. Each tree has one leaf per distinct (family,
// address) of its class, sorted as OpenZeppelin's StandardMerkleTree
// sorts; its leaf values are kept as positions in the index's EVM table
// (leafValues). Identical
// matches share one copy: an address listed once costs the position of its
// match in the shared table, not a Match of its own.
func BuildFrom(version uint64, builtAt time.Time, groups ...*Listings) (*Index, error) {
	table, remap, n, evm := shareMatches(groups)
	ix := &Index{Version: version, BuiltAt: builtAt, entries: newEntries(n-evm, table), bySource: map[string]int{}}
	uses := countUses(groups, remap, len(table))
	// Each tree has at most a leaf per listing of its class: room for
	// them all, so that the values are not copied as they grow.
	for m, c := range uses {
		if SanctionsSource(table[m].Source) {
			ix.values.ref = slices.Grow(ix.values.ref, c)
		} else {
			ix.cvalues.ref = slices.Grow(ix.cvalues.ref, c)
		}
	}
	// Addresses of other families go to a map, in the groups' order; EVM
	// addresses are collected, sorted and merged into the EVM table.
	refs := make([]evmRef, 0, evm)
	for gi, g := range groups {
		for i := range g.Len() {
			m := remap[gi][g.match[i]]
			if k, packed := g.evmKey(i); packed {
				refs = append(refs, newEVMRef(k, m, gi, i))
				continue
			}
			key := entryKey{g.family(i), g.address(i)}
			e, ok := ix.entries.other[key]
			e, err := ix.place(e, ok, m, &g.items, i, -1)
			if err != nil {
				return nil, err
			}
			ix.entries.other[key] = e
		}
	}
	sortRefs(refs)
	slots := refs[:0] // each address's slot replaces its first reference
	for r := 0; r < len(refs); {
		k := refs[r].k
		var e entry
		for first := true; r < len(refs) && refs[r].k == k; r, first = r+1, false {
			m, gi, i := refs[r].ref()
			var err error
			if e, err = ix.place(e, !first, m, &groups[gi].items, i, len(slots)); err != nil {
				return nil, err
			}
		}
		slots = append(slots, evmSlot{k: k, e: e})
	}
	if cap(slots)-len(slots) > len(slots)/4 { // many repeats: keep no slack
		slots = slices.Clone(slots)
	}
	ix.entries.evm.index(slots)
	for m, c := range uses {
		if c > 0 {
			ix.bySource[table[m].Source] += c
		}
	}
	for src := range ix.bySource {
		ix.Sources = append(ix.Sources, src)
	}
	sort.Strings(ix.Sources)
	var err error
	if ix.tree, err = ix.valuesTree(&ix.values); err != nil {
		return nil, err
	}
	if ix.community, err = ix.valuesTree(&ix.cvalues); err != nil {
		return nil, err
	}
	if ix.exclusion, err = ix.buildExclusion(ClassSanctions); err != nil {
		return nil, err
	}
	if ix.cexclusion, err = ix.buildExclusion(ClassCommunity); err != nil {
		return nil, err
	}
	return ix, nil
}

// place returns the entry of an address after one more listing of it
// (item i of from, match m; slot is the position of its slot in the EVM
// table, -1 for an address of another family): a new entry when it had
// none (!listed), with the match added otherwise; and a leaf in the tree
// of the match's class if it had none there yet.
func (ix *Index) place(e entry, listed bool, m uint32, from *items, i, slot int) (entry, error) {
	if !listed {
		e = entry{m: m, leaf: -1, cleaf: -1}
	} else {
		e = ix.entries.addMatch(e, ix.entries.table[m])
	}
	var err error
	switch sanctions := SanctionsSource(ix.entries.table[m].Source); {
	case sanctions && e.leaf < 0:
		e.leaf, err = ix.values.add(from, i, slot, "listed")
	case !sanctions && e.cleaf < 0:
		e.cleaf, err = ix.cvalues.add(from, i, slot, "community")
	}
	return e, err
}

// shareMatches returns the distinct matches of the groups, for each group
// the position in that table of each match of its own table, the number
// of listings, and how many of them are of EVM addresses (to size the
// index's maps).
func shareMatches(groups []*Listings) (table []Match, remap [][]uint32, n, evm int) {
	shared := map[Match]uint32{}
	remap = make([][]uint32, len(groups))
	for gi, g := range groups {
		if g == nil {
			continue
		}
		remap[gi] = make([]uint32, len(g.table))
		for k, m := range g.table {
			i, ok := shared[m]
			if !ok {
				i = uint32(len(table))
				shared[m] = i
				table = append(table, m)
			}
			remap[gi][k] = i
		}
		n, evm = n+g.Len(), evm+g.evm
	}
	return table, remap, n, evm
}

// countUses returns how many listings of the groups have each match of
// the shared table (remap: shareMatches').
func countUses(groups []*Listings, remap [][]uint32, matches int) []int {
	uses := make([]int, matches)
	for gi, g := range groups {
		for i := range g.Len() {
			uses[remap[gi][g.match[i]]]++
		}
	}
	return uses
}

// valuesTree is the StandardMerkleTree of the (family, address) values, in
// their order, nil for none.
func (ix *Index) valuesTree(vals *leafValues) (*merkle.Tree, error) {
	if vals.Len() == 0 {
		return nil, nil
	}
	return merkle.BuildStrings2Func(vals.Len(), func(i int, scratch []byte) (string, []byte) {
		f, a := vals.value(i, &ix.entries.evm, scratch)
		return string(f), a
	})
}

// Len is the number of distinct listed addresses, of either class.
func (ix *Index) Len() int { return ix.entries.len() }

// BySource counts listings per source.
func (ix *Index) BySource() map[string]int {
	out := make(map[string]int, len(ix.bySource))
	for k, v := range ix.bySource {
		out[k] = v
	}
	return out
}

// Root is the sanctions tree's Merkle root (zero for an empty tree).
func (ix *Index) Root() merkle.Hash { return rootOf(ix.tree) }

// CommunityRoot is the community tree's Merkle root (zero for an empty
// tree).
func (ix *Index) CommunityRoot() merkle.Hash { return rootOf(ix.community) }

// Leaves returns the number of leaves of the sanctions and the community
// tree.
func (ix *Index) Leaves() (sanctions, community int) { return lenOf(ix.tree), lenOf(ix.community) }

func rootOf(t *merkle.Tree) merkle.Hash {
	if t == nil {
		return merkle.Hash{}
	}
	return t.Root()
}

func lenOf(t *merkle.Tree) int {
	if t == nil {
		return 0
	}
	return t.Len()
}

// Lookup returns the matches of a canonical address.
func (ix *Index) Lookup(f Family, canonical string) []Match {
	e, ok := ix.entries.get(f, canonical)
	if !ok {
		return nil
	}
	return ix.entries.matches(e)
}
