package screening

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"iter"
	"math"
	"slices"
	"strings"
)

// Listings is one source's listings, held compactly for as long as a list
// version is in use (the next version's diff and the rebuilds after
// community escalations read them). A listing is a tag byte (its family),
// its address (the 20 bytes of a canonical EVM address, else the canonical
// string) and the position of its match in the source's table of distinct
// matches: an EVM listing costs 29 bytes, against 112 for a Listing and 48
// for its address string, and none of it is a pointer the collector would
// scan. A Listings is immutable once built (ListingsBuilder).
type Listings struct {
	items
	match []uint32 // position of each listing's match in table
	table []Match  // distinct matches, in order of first use
}

// items is a compact list of (family, canonical address) pairs, the form
// of a Listings and of the leaf values of the index's trees.
type items struct {
	data []byte   // per item: tag, then the address
	end  []uint32 // end of item i in data
	fams []Family // families by tag (tag &^ packedEVM)
	evm  int      // items whose address is packed
}

// packedEVM marks a tag whose address is the 20 bytes of a canonical EVM
// address ("0x" and 40 lower-case hex digits); without it the address is
// the canonical string itself.
const packedEVM = 0x80

// Len is the number of items.
func (it *items) Len() int { return len(it.end) }

func (it *items) span(i int) (tag byte, addr []byte) {
	start := uint32(0)
	if i > 0 {
		start = it.end[i-1]
	}
	return it.data[start], it.data[start+1 : it.end[i]]
}

// family is the family of item i.
func (it *items) family(i int) Family {
	tag, _ := it.span(i)
	return it.fams[tag&^packedEVM]
}

// evmKey is the 20-byte key of item i, when its address is packed.
func (it *items) evmKey(i int) ([20]byte, bool) {
	tag, a := it.span(i)
	if tag&packedEVM == 0 {
		return [20]byte{}, false
	}
	return [20]byte(a), true
}

// appendAddress appends the canonical address of item i to dst.
func (it *items) appendAddress(dst []byte, i int) []byte {
	tag, a := it.span(i)
	if tag&packedEVM == 0 {
		return append(dst, a...)
	}
	dst = append(dst, '0', 'x')
	return hex.AppendEncode(dst, a)
}

// address is the canonical address of item i.
func (it *items) address(i int) string {
	var buf [64]byte
	return string(it.appendAddress(buf[:0], i))
}

// tagOf returns the tag of family f, adding f to the families; a list
// holds at most 128 (there are 15).
func (it *items) tagOf(f Family) (byte, error) {
	for t, g := range it.fams {
		if g == f {
			return byte(t), nil
		}
	}
	if len(it.fams) == packedEVM {
		return 0, fmt.Errorf("screening: more than %d address families in one list", packedEVM)
	}
	it.fams = append(it.fams, f)
	return byte(len(it.fams) - 1), nil
}

// add appends (f, canonical).
func (it *items) add(f Family, canonical string) error {
	tag, err := it.tagOf(f)
	if err != nil {
		return err
	}
	if k, ok := evmKey(f, canonical); ok {
		it.data = append(append(it.data, tag|packedEVM), k[:]...)
		it.evm++
	} else {
		it.data = append(append(it.data, tag), canonical...)
	}
	return it.close()
}

// addFrom appends item i of o.
func (it *items) addFrom(o *items, i int) error {
	tag, a := o.span(i)
	packed := tag & packedEVM
	t, err := it.tagOf(o.fams[tag&^packedEVM])
	if err != nil {
		return err
	}
	it.data = append(append(it.data, t|packed), a...)
	if packed != 0 {
		it.evm++
	}
	return it.close()
}

func (it *items) close() error {
	if len(it.data) > math.MaxUint32 {
		return fmt.Errorf("screening: more than %d bytes of listed addresses", uint32(math.MaxUint32))
	}
	it.end = append(it.end, uint32(len(it.data)))
	return nil
}

// compareAddress orders item i of it and item j of o by (family, canonical
// address), as strings.
func (it *items) compareAddress(i int, o *items, j int) int {
	ta, a := it.span(i)
	tb, b := o.span(j)
	if c := strings.Compare(string(it.fams[ta&^packedEVM]), string(o.fams[tb&^packedEVM])); c != 0 {
		return c
	}
	if ta&packedEVM != 0 && tb&packedEVM != 0 {
		return bytes.Compare(a, b) // lower-case hex orders as its bytes
	}
	var ba, bb [64]byte
	return bytes.Compare(it.appendAddress(ba[:0], i), o.appendAddress(bb[:0], j))
}

// prefix is the first 14 bytes of the canonical address of item i,
// zero-padded.
func (it *items) prefix(i int) (p [14]byte) {
	tag, a := it.span(i)
	if tag&packedEVM == 0 {
		copy(p[:], a)
		return p
	}
	p[0], p[1] = '0', 'x'
	hex.Encode(p[2:], a[:6])
	return p
}

// At returns listing i.
func (l *Listings) At(i int) Listing {
	return Listing{Family: l.family(i), Address: l.address(i), Match: l.table[l.match[i]]}
}

// All yields the listings in order.
func (l *Listings) All() iter.Seq[Listing] {
	return func(yield func(Listing) bool) {
		for i := range l.Len() {
			if !yield(l.At(i)) {
				return
			}
		}
	}
}

// MatchAt returns the match of listing i.
func (l *Listings) MatchAt(i int) Match { return l.table[l.match[i]] }

// Compare orders listing i of l and listing j of o by key: (family,
// address, source, entity id), the identity of a listing and the order of
// the store's entries.
func (l *Listings) Compare(i int, o *Listings, j int) int {
	if c := l.compareAddress(i, &o.items, j); c != 0 {
		return c
	}
	a, b := &l.table[l.match[i]], &o.table[o.match[j]]
	if c := strings.Compare(a.Source, b.Source); c != 0 {
		return c
	}
	return strings.Compare(a.EntityID, b.EntityID)
}

// Equal reports whether l and o hold the same listings, matches included,
// in the same order.
func (l *Listings) Equal(o *Listings) bool {
	switch {
	case l == o:
		return true
	case l == nil || o == nil:
		return l.Len() == 0 && o.Len() == 0
	case l.Len() != o.Len() || !slices.Equal(l.end, o.end):
		return false
	case slices.Equal(l.fams, o.fams): // the same items are the same bytes
		if !bytes.Equal(l.data, o.data) {
			return false
		}
	default:
		for i := range l.end {
			if l.compareAddress(i, &o.items, i) != 0 {
				return false
			}
		}
	}
	if slices.Equal(l.table, o.table) {
		return slices.Equal(l.match, o.match)
	}
	for i := range l.match {
		if l.table[l.match[i]] != o.table[o.match[i]] {
			return false
		}
	}
	return true
}

// Len is the number of listings; a nil Listings has none.
func (l *Listings) Len() int {
	if l == nil {
		return 0
	}
	return len(l.end)
}

// ListingsBuilder collects a source's listings.
type ListingsBuilder struct {
	l    Listings
	at   map[Match]uint32
	last int
	err  error
}

// Add appends a listing.
func (b *ListingsBuilder) Add(f Family, canonical string, m Match) {
	if b.err != nil {
		return
	}
	i := b.matchIndex(m)
	if b.err = b.l.add(f, canonical); b.err == nil {
		b.l.match = append(b.l.match, i)
	}
}

// matchIndex is the position of m in the table, added if new. A source
// gives most of its listings the same match, so the previous listing's
// match is compared first.
func (b *ListingsBuilder) matchIndex(m Match) uint32 {
	if b.at == nil {
		b.at, b.last = map[Match]uint32{}, -1
	}
	if b.last < 0 || b.l.table[b.last] != m {
		i, ok := b.at[m]
		if !ok {
			i = uint32(len(b.l.table))
			b.at[m] = i
			b.l.table = append(b.l.table, m)
		}
		b.last = int(i)
	}
	return uint32(b.last)
}

// Append adds the listings of o after those of b, and empties o.
func (b *ListingsBuilder) Append(o *ListingsBuilder) {
	if b.err == nil {
		b.err = o.err
	}
	remap := make([]uint32, len(o.l.table))
	for k, m := range o.l.table {
		remap[k] = b.matchIndex(m)
	}
	for i := 0; b.err == nil && i < o.l.Len(); i++ {
		if b.err = b.l.addFrom(&o.l.items, i); b.err == nil {
			b.l.match = append(b.l.match, remap[o.l.match[i]])
		}
	}
	*o = ListingsBuilder{}
}

// Len is the number of listings added.
func (b *ListingsBuilder) Len() int { return len(b.l.end) }

// Grow makes room for n more listings of EVM addresses (the bulk of every
// list; others grow the room as they need), so that a builder told its
// size is built without copies and holds no slack.
func (b *ListingsBuilder) Grow(n int) {
	if n <= 0 {
		return
	}
	b.l.data = slices.Grow(b.l.data, n*(1+len([20]byte{})))
	b.l.end = slices.Grow(b.l.end, n)
	b.l.match = slices.Grow(b.l.match, n)
}

// Listings returns the listings in the order added and empties b.
func (b *ListingsBuilder) Listings() (*Listings, error) {
	l, err := b.l, b.err
	*b = ListingsBuilder{}
	if err != nil {
		return nil, err
	}
	return &l, nil
}

// Sorted returns the listings sorted by key (Listings.Compare), each key
// once (of listings with equal keys, the first added stays), and empties
// b.
//
// Listings added in key order, each key once (a list version's stored
// entries), are returned as they are: neither sorted nor copied. Others
// are sorted: the sort orders fixed-size keys (the family's rank and the
// address's first 14 bytes, which tell almost every pair of listings
// apart) with the listing's position, and compares the listings
// themselves only on a tie; then it copies the listings once, in order.
func (b *ListingsBuilder) Sorted() (*Listings, error) {
	l, err := b.Listings()
	if err != nil || l.Len() == 0 || l.sortedOnce() {
		return l, err
	}
	keys := l.sortKeys()
	slices.SortFunc(keys, func(a, b listingKey) int {
		if a.hi != b.hi {
			return cmpUint(a.hi, b.hi)
		}
		if a.lo != b.lo {
			return cmpUint(a.lo, b.lo)
		}
		if c := l.Compare(int(a.at), l, int(b.at)); c != 0 {
			return c
		}
		return cmpUint(uint64(a.at), uint64(b.at))
	})
	out := &Listings{table: l.table, match: make([]uint32, 0, len(keys)),
		items: items{data: make([]byte, 0, len(l.data)), end: make([]uint32, 0, len(keys))}}
	prev := -1
	for _, k := range keys {
		i := int(k.at)
		if prev >= 0 && l.Compare(prev, l, i) == 0 {
			continue
		}
		prev = i
		if err := out.addFrom(&l.items, i); err != nil {
			return nil, err
		}
		out.match = append(out.match, l.match[i])
	}
	return out, nil
}

// sortedOnce reports whether the listings are in key order, each key
// once.
func (l *Listings) sortedOnce() bool {
	for i := 1; i < l.Len(); i++ {
		if l.Compare(i-1, l, i) >= 0 {
			return false
		}
	}
	return true
}

// listingKey is a listing's sort key: hi is the rank of its family (16
// bits) and the first 6 bytes of its address, lo the next 8 bytes, both
// big-endian and zero-padded, so that a < b as keys implies a < b as
// listings (equal keys leave the order to Compare); at is the listing's
// position.
type listingKey struct {
	hi, lo uint64
	at     uint32
}

func (l *Listings) sortKeys() []listingKey {
	sorted := slices.Clone(l.fams)
	slices.Sort(sorted)
	rank := make([]uint64, len(l.fams))
	for t, f := range l.fams {
		rank[t] = uint64(slices.Index(sorted, f))
	}
	keys := make([]listingKey, l.Len())
	for i := range keys {
		tag, _ := l.span(i)
		b := l.prefix(i)
		keys[i] = listingKey{at: uint32(i),
			hi: rank[tag&^packedEVM]<<48 | uint64(b[0])<<40 | uint64(b[1])<<32 | uint64(b[2])<<24 | uint64(b[3])<<16 | uint64(b[4])<<8 | uint64(b[5]),
			lo: binary.BigEndian.Uint64(b[6:]),
		}
	}
	return keys
}

func cmpUint(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// NewListings returns ls as a Listings, sorted by key with each key once
// (ListingsBuilder.Sorted).
func NewListings(ls []Listing) (*Listings, error) {
	var b ListingsBuilder
	for _, x := range ls {
		b.Add(x.Family, x.Address, x.Match)
	}
	return b.Sorted()
}

// compact returns ls as a Listings, in their order.
func compact(ls []Listing) (*Listings, error) {
	var b ListingsBuilder
	for _, x := range ls {
		b.Add(x.Family, x.Address, x.Match)
	}
	return b.Listings()
}
