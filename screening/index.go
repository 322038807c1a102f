package screening

import (
	"fmt"
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

// Index is an immutable list version: every listed address with its
// matches, and the Merkle tree over the (family, address) leaves. Lookups
// take no lock.
type Index struct {
	Version uint64
	BuiltAt time.Time
	Sources []string
	// Snapshots are the raw source copies of this version, by source name;
	// set by the builder before the index is installed, read-only after.
	Snapshots map[string]Snapshot
	entries   map[entryKey]entry
	tree      *merkle.StandardTree
	bySource  map[string]int
}

// entryKey is a listed (family, canonical address); a struct key hashes
// both strings without building a new one per lookup.
type entryKey struct {
	f    Family
	addr string
}

// entry is what the index holds per listed address: its matches and the
// value index of its leaf in the tree, so that a proof goes straight to the
// leaf without hashing the address and searching the sorted leaves.
type entry struct {
	ms   []Match
	leaf int32
}

// Build makes an index of the listings. The tree has one leaf per distinct
// (family, address), sorted as OpenZeppelin's StandardMerkleTree sorts.
// Identical matches share one copy: an address listed once costs a slice
// header into the shared table, not a Match of its own.
func Build(version uint64, builtAt time.Time, listings []Listing) (*Index, error) {
	ix := &Index{Version: version, BuiltAt: builtAt, entries: make(map[entryKey]entry, len(listings)), bySource: map[string]int{}}
	var pairs [][2]string
	shared := map[Match]int{}
	var table []Match
	for _, l := range listings {
		if _, ok := shared[l.Match]; !ok {
			shared[l.Match] = len(table)
			table = append(table, l.Match)
		}
	}
	for _, l := range listings {
		k := entryKey{l.Family, l.Address}
		e, ok := ix.entries[k]
		if !ok {
			if len(pairs) == math.MaxInt32 {
				return nil, fmt.Errorf("screening: more than %d listed addresses", math.MaxInt32)
			}
			i := shared[l.Match]
			ix.entries[k] = entry{ms: table[i : i+1 : i+1], leaf: int32(len(pairs))}
			pairs = append(pairs, [2]string{string(l.Family), l.Address})
		} else {
			e.ms = append(e.ms, l.Match) // capacity is full: copies, never writes the table
			ix.entries[k] = e
		}
		ix.bySource[l.Source]++
	}
	for src := range ix.bySource {
		ix.Sources = append(ix.Sources, src)
	}
	sort.Strings(ix.Sources)
	if len(pairs) > 0 {
		t, err := merkle.NewStrings2Tree(pairs, true)
		if err != nil {
			return nil, err
		}
		ix.tree = t
	}
	return ix, nil
}

// Len is the number of distinct listed addresses (the tree's leaves).
func (ix *Index) Len() int { return len(ix.entries) }

// BySource counts listings per source.
func (ix *Index) BySource() map[string]int {
	out := make(map[string]int, len(ix.bySource))
	for k, v := range ix.bySource {
		out[k] = v
	}
	return out
}

// Root is the Merkle root (zero for an empty list).
func (ix *Index) Root() merkle.Hash {
	if ix.tree == nil {
		return merkle.Hash{}
	}
	return ix.tree.Root()
}

// Lookup returns the matches of a canonical address.
func (ix *Index) Lookup(f Family, canonical string) []Match {
	return ix.entries[entryKey{f, canonical}].ms
}
