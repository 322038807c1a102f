package pebble

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/cairn-dev/cairn"
)

// The current entries of the newest list version are one segment: every
// entry in (family, address, source, entity) order, cut into chunks of up
// to segmentChunk entries, each chunk one value (format below) keyed by
// the version and its first entry, so that the chunk holding an address
// is one reverse seek away:
//
//	scr/s/<version BE uint64><family><address><source><entityID>   chunk
//
// Only the newest version's segment is kept. Each entry carries the
// version that listed it (since), so that a listing costs no history row:
// rows are written when an entry is removed (its listing and its
// delisting), and AddressHistory adds the current entries' listings. A
// version of a million addresses is about 30 MB of chunks instead of two
// million JSON keys.
const (
	listSegmentPrefix = PrefixCompliance + "s/"
	segmentChunk      = 4096
	segmentFormat     = 2
	// segmentFormat1 is the format of chunks written before programs were
	// kept: no programs per entry. They still decode (with none).
	segmentFormat1 = 1
)

// segEntry is a current entry with the version that listed it; since 0
// marks an entry stored before segments, whose listing is a history row.
type segEntry struct {
	cairn.ListEntry
	since uint64
}

func segmentVersionPrefix(v uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte(listSegmentPrefix), v)
}

func segmentChunkKey(v uint64, e cairn.ListEntry) []byte {
	k := segmentVersionPrefix(v)
	for _, s := range []string{e.Family, e.Address, e.Source, e.EntityID} {
		k = appendComponent(k, s)
	}
	return k
}

// A chunk is:
//
//	format byte (2; 1 before programs)
//	uvarint n, then n strings (uvarint length, bytes): the chunk's table
//	uvarint count, then per entry:
//	  uvarint family, address, uvarint source, entityID, entityName,
//	  category, severity, programs (cairn.Programs, one code per line;
//	  absent in format 1) (indexes into the table), uvarint since
//
// where address is 0x01 and 20 bytes for a lower-case 0x-hex EVM address,
// or 0x00, uvarint length and bytes for any other.
type chunkEncoder struct {
	strs  []string
	index map[string]uint64
	body  []byte
	count int
}

func (c *chunkEncoder) reset() {
	c.strs, c.body, c.count = c.strs[:0], c.body[:0], 0
	clear(c.index)
}

func (c *chunkEncoder) str(s string) {
	i, ok := c.index[s]
	if !ok {
		i = uint64(len(c.strs))
		c.index[s] = i
		c.strs = append(c.strs, s)
	}
	c.body = binary.AppendUvarint(c.body, i)
}

func (c *chunkEncoder) add(e segEntry) {
	c.str(e.Family)
	if evmHex(e.Address) {
		c.body = append(c.body, 1)
		c.body, _ = hex.AppendDecode(c.body, []byte(e.Address[2:]))
	} else {
		c.body = append(c.body, 0)
		c.body = binary.AppendUvarint(c.body, uint64(len(e.Address)))
		c.body = append(c.body, e.Address...)
	}
	for _, s := range []string{e.Source, e.EntityID, e.EntityName, e.Category, e.Severity, string(e.Programs)} {
		c.str(s)
	}
	c.body = binary.AppendUvarint(c.body, e.since)
	c.count++
}

func (c *chunkEncoder) encode() []byte {
	n := 1 + binary.MaxVarintLen64*2 + len(c.body)
	for _, s := range c.strs {
		n += binary.MaxVarintLen64 + len(s)
	}
	out := append(make([]byte, 0, n), segmentFormat)
	out = binary.AppendUvarint(out, uint64(len(c.strs)))
	for _, s := range c.strs {
		out = binary.AppendUvarint(out, uint64(len(s)))
		out = append(out, s...)
	}
	out = binary.AppendUvarint(out, uint64(c.count))
	return append(out, c.body...)
}

// evmHex reports whether s is 0x and 40 lower-case hex digits, the form
// stored in 20 bytes.
func evmHex(s string) bool {
	if len(s) != 42 || s[0] != '0' || s[1] != 'x' {
		return false
	}
	for i := 2; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

var errBadChunk = errors.New("pebble: damaged list segment chunk")

// decodeChunk calls fn with each entry of a chunk, in order.
func decodeChunk(b []byte, fn func(segEntry) error) error {
	if len(b) == 0 || (b[0] != segmentFormat && b[0] != segmentFormat1) {
		return errBadChunk
	}
	programs := b[0] != segmentFormat1
	b = b[1:]
	uv := func() (uint64, bool) {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			return 0, false
		}
		b = b[n:]
		return v, true
	}
	bytesOf := func(n uint64) ([]byte, bool) {
		if n > uint64(len(b)) {
			return nil, false
		}
		out := b[:n]
		b = b[n:]
		return out, true
	}
	ns, ok := uv()
	if !ok || ns > uint64(len(b)) {
		return errBadChunk
	}
	strs := make([]string, ns)
	for i := range strs {
		l, ok := uv()
		s, ok2 := bytesOf(l)
		if !ok || !ok2 {
			return errBadChunk
		}
		strs[i] = string(s)
	}
	str := func() (string, bool) {
		i, ok := uv()
		if !ok || i >= uint64(len(strs)) {
			return "", false
		}
		return strs[i], true
	}
	count, ok := uv()
	if !ok {
		return errBadChunk
	}
	for range count {
		var e segEntry
		var ok bool
		if e.Family, ok = str(); !ok || len(b) == 0 {
			return errBadChunk
		}
		tag := b[0]
		b = b[1:]
		switch tag {
		case 1:
			raw, ok := bytesOf(20)
			if !ok {
				return errBadChunk
			}
			e.Address = "0x" + hex.EncodeToString(raw)
		case 0:
			l, ok := uv()
			raw, ok2 := bytesOf(l)
			if !ok || !ok2 {
				return errBadChunk
			}
			e.Address = string(raw)
		default:
			return errBadChunk
		}
		fields := []*string{&e.Source, &e.EntityID, &e.EntityName, &e.Category, &e.Severity, (*string)(&e.Programs)}
		if !programs {
			fields = fields[:5]
		}
		for _, dst := range fields {
			if *dst, ok = str(); !ok {
				return errBadChunk
			}
		}
		if e.since, ok = uv(); !ok {
			return errBadChunk
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	if len(b) != 0 {
		return fmt.Errorf("%w: %d trailing bytes", errBadChunk, len(b))
	}
	return nil
}
