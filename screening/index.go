package screening

import (
	"encoding/json"
	"fmt"
	"iter"
	"math"
	"sort"
	"time"

	"github.com/cairn-dev/cairn/merkle"
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
	Source     string `json:"source"`
	Category   string `json:"category"`
	Severity   string `json:"severity"`
}

// MarshalJSON writes entityId and entityName as null when the source
// names no entity (a plain per-chain list), as spec 2.4 allows, rather
// than as empty strings.
func (m Match) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 96+len(m.EntityName))
	b = append(b, `{"entityId":`...)
	b = appendNullable(b, m.EntityID)
	b = append(b, `,"entityName":`...)
	b = appendNullable(b, m.EntityName)
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
type Snapshot struct {
	BlobName   string    `json:"blobName"`
	StorageURL string    `json:"storageUrl"`
	SHA256     string    `json:"sha256"`
	FetchedAt  time.Time `json:"fetchedAt"`
	// Bundled marks the snapshot built into the binary (not fetched):
	// SourceSHA256 and SnapshotDate are then the digest and the date of
	// issue of the published file it was extracted from.
	Bundled      bool   `json:"bundled,omitempty"`
	SourceSHA256 string `json:"sourceSha256,omitempty"`
	SnapshotDate string `json:"snapshotDate,omitempty"`
}

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
// matches, and two Merkle trees over (family, address) leaves: the
// sanctions tree (what the sanctions sources list) and the community tree
// (what community reports escalated). Lookups take no lock.
type Index struct {
	Version uint64
	BuiltAt time.Time
	Sources []string
	// Snapshots are the raw source copies of this version, by source name;
	// set by the builder before the index is installed, read-only after.
	Snapshots map[string]Snapshot
	entries   *entries
	tree      *merkle.StandardTree // sanctions; nil when empty
	community *merkle.StandardTree // nil when empty
	bySource  map[string]int
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

// Build makes an index of the listings, given in one or more groups (a
// list version passes one group per source, so that it never copies them
// into one slice); an address's matches are in the order of the groups and
// of the listings within them. Each tree has one leaf per distinct (family,
// address) of its class, sorted as OpenZeppelin's StandardMerkleTree sorts.
// Identical matches share one copy: an address listed once costs a slice
// header into the shared table, not a Match of its own.
func Build(version uint64, builtAt time.Time, groups ...[]Listing) (*Index, error) {
	n := 0
	for _, g := range groups {
		n += len(g)
	}
	table, at, evm := shareMatches(groups)
	ix := &Index{Version: version, BuiltAt: builtAt, entries: newEntries(evm, n-evm, table), bySource: map[string]int{}}
	var pairs, cpairs [][2]string
	for l := range eachListing(groups) {
		e, ok := ix.entries.get(l.Family, l.Address)
		if !ok {
			e.m = uint32(at(l.Match))
		} else {
			e = ix.entries.addMatch(e, l.Match)
		}
		switch {
		case SanctionsSource(l.Source) && e.leaf < 0:
			if len(pairs) == math.MaxInt32 {
				return nil, fmt.Errorf("screening: more than %d listed addresses", math.MaxInt32)
			}
			e.leaf = int32(len(pairs))
			pairs = append(pairs, [2]string{string(l.Family), l.Address})
		case !SanctionsSource(l.Source) && e.cleaf < 0:
			if len(cpairs) == math.MaxInt32 {
				return nil, fmt.Errorf("screening: more than %d community addresses", math.MaxInt32)
			}
			e.cleaf = int32(len(cpairs))
			cpairs = append(cpairs, [2]string{string(l.Family), l.Address})
		}
		ix.entries.set(l.Family, l.Address, e)
		ix.bySource[l.Source]++
	}
	for src := range ix.bySource {
		ix.Sources = append(ix.Sources, src)
	}
	sort.Strings(ix.Sources)
	var err error
	if ix.tree, err = strings2Tree(pairs); err != nil {
		return nil, err
	}
	if ix.community, err = strings2Tree(cpairs); err != nil {
		return nil, err
	}
	return ix, nil
}

// shareMatches returns the distinct matches of the listings, a function
// giving a match's position among them, and how many listings are of EVM
// addresses (to size the index's maps). Listings come sorted, and a source
// gives most of its addresses the same match, so the match of the previous
// lookup is compared first: that spares hashing five strings per listing.
func shareMatches(groups [][]Listing) ([]Match, func(Match) int, int) {
	shared := map[Match]int{}
	var table []Match
	last, evm := -1, 0
	at := func(m Match) int {
		if last >= 0 && table[last] == m {
			return last
		}
		i, ok := shared[m]
		if !ok {
			i = len(table)
			shared[m] = i
			table = append(table, m)
		}
		last = i
		return i
	}
	for l := range eachListing(groups) {
		at(l.Match)
		if isEVMKey(l.Family, l.Address) {
			evm++
		}
	}
	return table, at, evm
}

// eachListing yields the listings of the groups in order (by value, as
// ranging over one slice would).
func eachListing(groups [][]Listing) iter.Seq[Listing] {
	return func(yield func(Listing) bool) {
		for _, g := range groups {
			for _, l := range g {
				if !yield(l) {
					return
				}
			}
		}
	}
}

// strings2Tree is the StandardMerkleTree of the pairs, nil for none.
func strings2Tree(pairs [][2]string) (*merkle.StandardTree, error) {
	if len(pairs) == 0 {
		return nil, nil
	}
	return merkle.NewStrings2Tree(pairs, true)
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

func rootOf(t *merkle.StandardTree) merkle.Hash {
	if t == nil {
		return merkle.Hash{}
	}
	return t.Root()
}

func lenOf(t *merkle.StandardTree) int {
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
