package screening

import (
	"cmp"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// evmTable holds the index's EVM addresses: their 20 bytes and entries,
// sorted by address, and a directory by the addresses' leading bits, so
// that a lookup reads one directory word and binary-searches the few
// slots of its bucket (addresses are keccak digests, evenly spread; a
// bucket crowded by chosen addresses costs a longer binary search, never
// a wrong answer). A slot is 32 bytes and nothing else is per address:
// a map of the same keys and entries took 83-96 MB for a million
// addresses (its slack and control bytes), the table 32 MB and the
// directory 1 MB. It holds no pointer.
type evmTable struct {
	slots []evmSlot
	dir   []uint32 // dir[b]: the first slot whose bucket is >= b
	// A bucket is the bits of an address that follow the leading bits all
	// its addresses share (skip of them): a list whose addresses all start
	// alike still spreads over the directory.
	skip, shift uint
}

type evmSlot struct {
	k [20]byte
	e entry
}

// bucket is the directory bucket of k. An address that does not start
// as the table's addresses do gets some bucket, where it is not found.
func (t *evmTable) bucket(k *[20]byte) uint64 {
	return binary.BigEndian.Uint64(k[:8]) << t.skip >> t.shift
}

func (t *evmTable) get(k [20]byte) (entry, bool) {
	if len(t.slots) == 0 {
		return entry{}, false
	}
	b := t.bucket(&k)
	lo, hi := int(t.dir[b]), int(t.dir[b+1])
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch c := compare20(&t.slots[m].k, &k); {
		case c < 0:
			lo = m + 1
		case c > 0:
			hi = m
		default:
			return t.slots[m].e, true
		}
	}
	return entry{}, false
}

// lowerBound returns the number of the table's addresses below k, with
// the directory: the slots of k's bucket are the only ones that can fall
// on either side of k (an address that does not share the leading bits
// of every slot lies below or above all of them).
func (t *evmTable) lowerBound(k *[20]byte) int {
	n := len(t.slots)
	if n == 0 {
		return 0
	}
	if compare20(k, &t.slots[0].k) <= 0 {
		return 0
	}
	if compare20(k, &t.slots[n-1].k) > 0 {
		return n
	}
	// Between the first and the last slot: k shares their leading bits,
	// so its bucket is where it sorts.
	b := t.bucket(k)
	lo, hi := int(t.dir[b]), int(t.dir[b+1])
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if compare20(&t.slots[m].k, k) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// compare20 orders two addresses as their bytes, a word at a time.
func compare20(a, b *[20]byte) int {
	if x, y := binary.BigEndian.Uint64(a[:8]), binary.BigEndian.Uint64(b[:8]); x != y {
		return cmp.Compare(x, y)
	}
	if x, y := binary.BigEndian.Uint64(a[8:16]), binary.BigEndian.Uint64(b[8:16]); x != y {
		return cmp.Compare(x, y)
	}
	return cmp.Compare(binary.BigEndian.Uint32(a[16:]), binary.BigEndian.Uint32(b[16:]))
}

func (t *evmTable) len() int { return len(t.slots) }

// index builds the directory over slots, which are sorted by address and
// distinct; about four slots per bucket.
func (t *evmTable) index(slots []evmSlot) {
	t.slots = slots
	n := len(slots)
	b := 0
	if n > 4 {
		b = min(bits.Len(uint(n/4)), 28)
	}
	t.skip, t.shift = 0, uint(64-b) // Go shifts by 64 give 0: one bucket
	if n > 1 {
		first, last := binary.BigEndian.Uint64(slots[0].k[:8]), binary.BigEndian.Uint64(slots[n-1].k[:8])
		t.skip = min(uint(bits.LeadingZeros64(first^last)), t.shift)
	}
	t.dir = make([]uint32, 1<<b+1)
	i := 0
	for d := range t.dir {
		for i < n && t.bucket(&slots[i].k) < uint64(d) {
			i++
		}
		t.dir[d] = uint32(i)
	}
}

// evmRef is, while an index is built, an EVM listing: its address, its
// match's position in the shared table, and where it is (group and
// position in the group). Its layout is a slot's, so that the sorted
// references become the table's slots in place.
type evmRef = evmSlot

func newEVMRef(k [20]byte, m uint32, group, i int) evmRef {
	return evmRef{k: k, e: entry{m: m, leaf: int32(group), cleaf: int32(i)}}
}

func (r *evmRef) ref() (m uint32, group, i int) { return r.e.m, int(r.e.leaf), int(r.e.cleaf) }

// sortRefs sorts the references by address, then by group and position:
// the order of an address's matches. The groups' listings are sorted by
// key already, so one source's references come sorted and the sort is a
// check.
func sortRefs(refs []evmRef) {
	order := func(a, b evmRef) int {
		if c := compare20(&a.k, &b.k); c != 0 {
			return c
		}
		if c := cmp.Compare(a.e.leaf, b.e.leaf); c != 0 {
			return c
		}
		return cmp.Compare(a.e.cleaf, b.e.cleaf)
	}
	if !slices.IsSortedFunc(refs, order) {
		slices.SortFunc(refs, order)
	}
}

// leafValues are the (family, address) values of a tree's leaves, by value
// index. An EVM address is the position of its slot in the index's EVM
// table, which holds its 20 bytes: 4 bytes per leaf instead of a copy of
// the address. Any other address is an item of its own.
type leafValues struct {
	ref   []uint32 // slot position, or otherValue|position in other
	other items
}

const otherValue = 1 << 31

// Len is the number of values.
func (v *leafValues) Len() int { return len(v.ref) }

// add appends the value of item i of from, whose slot in the EVM table is
// at position slot (-1: not an EVM address), and returns its value index.
func (v *leafValues) add(from *items, i, slot int, what string) (int32, error) {
	n := len(v.ref)
	if n == math.MaxInt32 || slot >= otherValue || v.other.Len() >= otherValue {
		return -1, fmt.Errorf("screening: more than %d %s addresses", math.MaxInt32, what)
	}
	if slot >= 0 {
		v.ref = append(v.ref, uint32(slot))
		return int32(n), nil
	}
	v.ref = append(v.ref, otherValue|uint32(v.other.Len()))
	return int32(n), v.other.addFrom(from, i)
}

// value returns value i: its family, and its address appended to dst.
func (v *leafValues) value(i int, t *evmTable, dst []byte) (Family, []byte) {
	r := v.ref[i]
	if r&otherValue != 0 {
		return v.other.family(int(r &^ otherValue)), v.other.appendAddress(dst, int(r&^otherValue))
	}
	dst = append(dst, '0', 'x')
	return EVM, hex.AppendEncode(dst, t.slots[r].k[:])
}
