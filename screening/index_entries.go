package screening

// entries is the index's table of listed addresses. EVM addresses, the bulk
// of every list, are kept by their 20 bytes in a sorted table that holds no
// pointer (the garbage collector never scans it), 32 bytes per address
// (index_evm.go); the other families are keyed by (family, canonical
// string). An entry names its matches by position: in the table of
// distinct matches when the address has one (most have), in multi when it
// has several.
type entries struct {
	evm   evmTable
	other map[entryKey]entry
	table []Match   // distinct matches
	multi [][]Match // the matches of addresses listed more than once
}

// entryKey is a listed (family, canonical address) of a family other than
// EVM; a struct key hashes both strings without building a new one per
// lookup.
type entryKey struct {
	f    Family
	addr string
}

// entry is what the index holds per listed address: its matches (m, a
// position in table, or multiEntry|position in multi) and the value index
// of its leaf in each tree (-1: not in it), so that a proof goes straight
// to the leaf without hashing the address and searching the sorted leaves.
type entry struct {
	m     uint32
	leaf  int32 // sanctions tree
	cleaf int32 // community tree
}

const multiEntry = 1 << 31

// noEntry is what get returns for an address that is not listed.
var noEntry = entry{leaf: -1, cleaf: -1}

func newEntries(other int, table []Match) *entries {
	return &entries{other: make(map[entryKey]entry, other), table: table}
}

// evmKey is the 20 bytes of a canonical EVM address ("0x" and 40 lower-case
// hex digits, as Normalize writes it); any other string is not an EVM key
// and is kept under its string, so each string has one place.
func evmKey(f Family, canonical string) ([20]byte, bool) {
	var k [20]byte
	if f != EVM || len(canonical) != 42 || canonical[0] != '0' || canonical[1] != 'x' {
		return k, false
	}
	for i := range k {
		hi, ok1 := lowerHexDigit(canonical[2+2*i])
		lo, ok2 := lowerHexDigit(canonical[3+2*i])
		if !ok1 || !ok2 {
			return k, false
		}
		k[i] = hi<<4 | lo
	}
	return k, true
}

func lowerHexDigit(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

func (es *entries) get(f Family, canonical string) (entry, bool) {
	var e entry
	var ok bool
	if k, isEVM := evmKey(f, canonical); isEVM {
		e, ok = es.evm.get(k)
	} else {
		e, ok = es.other[entryKey{f, canonical}]
	}
	if !ok {
		return noEntry, false
	}
	return e, true
}

// addMatch returns e with one more match (an address listed again).
func (es *entries) addMatch(e entry, m Match) entry {
	if e.m&multiEntry != 0 {
		i := e.m &^ multiEntry
		es.multi[i] = append(es.multi[i], m)
		return e
	}
	first := es.table[e.m]
	e.m = multiEntry | uint32(len(es.multi))
	es.multi = append(es.multi, []Match{first, m})
	return e
}

// matches returns the matches of a listed address's entry. The slice is
// the index's: callers must not write it.
func (es *entries) matches(e entry) []Match {
	if e.m&multiEntry != 0 {
		return es.multi[e.m&^multiEntry]
	}
	return es.table[e.m : e.m+1 : e.m+1]
}

func (es *entries) len() int { return es.evm.len() + len(es.other) }
