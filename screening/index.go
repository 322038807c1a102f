package screening

import (
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/cairn-dev/cairn"
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

// Index is an immutable list version: every listed address with its
// matches, and the Merkle tree over the (family, address) leaves. Lookups
// take no lock.
type Index struct {
	Version  uint64
	BuiltAt  time.Time
	Sources  []string
	entries  map[string][]Match
	tree     *merkle.StandardTree
	bySource map[string]int
}

func entryKey(f Family, addr string) string { return string(f) + "\x00" + addr }

// Build makes an index of the listings. The tree has one leaf per distinct
// (family, address), sorted as OpenZeppelin's StandardMerkleTree sorts.
func Build(version uint64, builtAt time.Time, listings []Listing) (*Index, error) {
	ix := &Index{Version: version, BuiltAt: builtAt, entries: make(map[string][]Match, len(listings)), bySource: map[string]int{}}
	var pairs [][2]string
	seenSource := map[string]bool{}
	for _, l := range listings {
		k := entryKey(l.Family, l.Address)
		if _, ok := ix.entries[k]; !ok {
			pairs = append(pairs, [2]string{string(l.Family), l.Address})
		}
		ix.entries[k] = append(ix.entries[k], l.Match)
		ix.bySource[l.Source]++
		if !seenSource[l.Source] {
			seenSource[l.Source] = true
			ix.Sources = append(ix.Sources, l.Source)
		}
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
	return ix.entries[entryKey(f, canonical)]
}

// Proof returns the leaf hash and Merkle proof of a listed address, and
// false when it is not listed.
func (ix *Index) Proof(f Family, canonical string) (merkle.Hash, []merkle.Hash, bool) {
	if ix.tree == nil {
		return merkle.Hash{}, nil, false
	}
	if _, ok := ix.entries[entryKey(f, canonical)]; !ok {
		return merkle.Hash{}, nil, false
	}
	leaf := merkle.LeafHashStrings2(string(f), canonical)
	_, proof, err := ix.tree.Tree().ProofOf(leaf)
	if err != nil {
		return merkle.Hash{}, nil, false
	}
	return leaf, proof, true
}

// Query is one address to screen.
type Query struct {
	Address string `json:"address"`
	Chain   string `json:"chain"`
}

// Result is the screening of one address (spec 2.4).
type Result struct {
	Address   string  `json:"address"`
	Chain     string  `json:"chain"`
	Status    string  `json:"status"`
	Family    Family  `json:"family"`
	Canonical string  `json:"canonicalAddress"`
	Checksum  string  `json:"checksum"` // "valid", "invalid" (EIP-55 mismatch, still screened) or "none"
	Matches   []Match `json:"matches"`
}

// Screen screens a batch. An unknown chain fails the whole batch with
// EINVALID naming it; an invalid address gets its own status.
func (ix *Index) Screen(qs []Query, includeCommunity bool) ([]Result, error) {
	out := make([]Result, len(qs))
	for i, q := range qs {
		f, err := ChainFamily(q.Chain)
		if err != nil {
			return nil, cairn.Errorf(cairn.EINVALID, "addresses[%d]: unknown chain %q.", i, clipText(q.Chain)).With("chain", clipText(q.Chain))
		}
		r := Result{Address: q.Address, Chain: q.Chain, Family: f, Matches: []Match{}, Checksum: "none"}
		canon, st := Normalize(f, q.Address)
		switch st {
		case StatusInvalid:
			r.Status = StatusInvalidAddress
			out[i] = r
			continue
		case StatusBadChecksum:
			r.Checksum = "invalid"
		default:
			if f == EVM && mixedCase(q.Address) {
				r.Checksum = "valid"
			}
		}
		r.Canonical, r.Status = canon, StatusClear
		for _, m := range ix.Lookup(f, canon) {
			if m.Source == SourceCommunity && !includeCommunity {
				continue
			}
			r.Matches = append(r.Matches, m)
			if m.Source != SourceCommunity {
				r.Status = StatusSanctioned
			} else if r.Status == StatusClear {
				r.Status = StatusFlagged
			}
		}
		out[i] = r
	}
	return out, nil
}

// mixedCase reports whether s has both upper- and lower-case letters, i.e.
// carries an EIP-55 checksum.
func mixedCase(s string) bool {
	s = strings.TrimSpace(s)
	if len(s) > 2 && (s[:2] == "0x" || s[:2] == "0X") {
		s = s[2:]
	}
	return strings.ToLower(s) != s && strings.ToUpper(s) != s
}

func clipText(s string) string {
	if len(s) > 64 {
		return s[:64]
	}
	return s
}

// Holder holds the current index; Swap replaces it atomically and Current
// never blocks.
type Holder struct{ p atomic.Pointer[Index] }

// Current returns the current index, or an empty one before the first Swap.
func (h *Holder) Current() *Index {
	if ix := h.p.Load(); ix != nil {
		return ix
	}
	return emptyIndex
}

// Swap installs ix.
func (h *Holder) Swap(ix *Index) { h.p.Store(ix) }

var emptyIndex, _ = Build(0, time.Time{}, nil)

// MultiProof returns the OpenZeppelin multiproof of the listed (family,
// canonical) pairs, each at most once, with the values in the order of the
// proof's leaves. Pairs that are not listed are skipped.
func (ix *Index) MultiProof(pairs [][2]string) (merkle.MultiProof, [][2]string, error) {
	if ix.tree == nil {
		return merkle.MultiProof{Leaves: []merkle.Hash{}, Proof: []merkle.Hash{}, ProofFlags: []bool{}}, [][2]string{}, nil
	}
	seen := map[int]bool{}
	var idx []int
	for _, p := range pairs {
		if _, ok := ix.entries[entryKey(Family(p[0]), p[1])]; !ok {
			continue
		}
		i, ok := ix.tree.Tree().LeafIndex(merkle.LeafHashStrings2(p[0], p[1]))
		if ok && !seen[i] {
			seen[i] = true
			idx = append(idx, i)
		}
	}
	mp, err := ix.tree.MultiProof(idx)
	if err != nil {
		return merkle.MultiProof{}, nil, err
	}
	values := make([][2]string, len(mp.Indices))
	for k, i := range mp.Indices {
		v := ix.tree.Value(i)
		values[k] = [2]string{v[0].(string), v[1].(string)}
	}
	return mp, values, nil
}
