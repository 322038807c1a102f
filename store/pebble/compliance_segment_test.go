package pebble

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
)

// FuzzDecodeChunk: a chunk encodes and decodes back to its entries, and no
// damaged chunk panics the decoder.
func FuzzDecodeChunk(f *testing.F) {
	f.Add("evm", "0x00000000000000000000000000000000000000a1", "gov_sdn", "27307", "Lazarus Group", uint64(3), 5)
	f.Add("bitcoin", "bc1qxyz", "list:xbt", "", "", uint64(0), 3)
	f.Add("evm", "0xABCDEF0000000000000000000000000000000000", "community", "r", "", uint64(1<<40), 1)
	f.Fuzz(func(t *testing.T, family, addr, source, entity, name string, since uint64, cut int) {
		c := chunkEncoder{index: map[string]uint64{}}
		want := []segEntry{
			{cairn.ListEntry{Family: family, Address: addr, Source: source, EntityID: entity, EntityName: name,
				Programs: cairn.ProgramsOf([]string{name, entity}), Category: "sanctions", Severity: "critical"}, since},
			{cairn.ListEntry{Family: family, Address: addr + "0", Source: source, Category: "mixer", Severity: "high"}, since + 1},
		}
		for _, e := range want {
			c.add(e)
		}
		b := c.encode()
		var got []segEntry
		if err := decodeChunk(b, func(e segEntry) error { got = append(got, e); return nil }); err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
			t.Fatalf("round trip: %+v, want %+v", got, want)
		}
		if cut > 0 && cut < len(b) {
			if err := decodeChunk(b[:len(b)-cut], func(segEntry) error { return nil }); err == nil {
				t.Fatalf("a chunk cut by %d bytes decoded", cut)
			}
		}
		_ = decodeChunk(b[min(len(b), max(cut, 0)):], func(segEntry) error { return nil })
	})
}

// TestDecodeChunkFormat1: a chunk written before programs were kept
// (format 1) still decodes, each entry without programs.
func TestDecodeChunkFormat1(t *testing.T) {
	b := []byte{segmentFormat1, 6}
	for _, s := range []string{"evm", "gov_sdn", "27307", "Lazarus Group", "sanctions", "critical"} {
		b = append(binary.AppendUvarint(b, uint64(len(s))), s...)
	}
	b = append(b, 1, 0, 1) // one entry: family evm, a 20-byte EVM address
	b = append(b, bytes.Repeat([]byte{0xa1}, 20)...)
	b = append(b, 1, 2, 3, 4, 5, 7) // source .. severity, since 7
	var got []segEntry
	if err := decodeChunk(b, func(e segEntry) error { got = append(got, e); return nil }); err != nil {
		t.Fatal(err)
	}
	want := segEntry{cairn.ListEntry{Family: "evm", Address: "0x" + strings.Repeat("a1", 20), Source: "gov_sdn", EntityID: "27307",
		EntityName: "Lazarus Group", Category: "sanctions", Severity: "critical"}, 7}
	if len(got) != 1 || got[0] != want {
		t.Fatalf("format 1 chunk: %+v, want %+v", got, want)
	}
	// The same entry in the current format carries its programs.
	want.Programs = cairn.ProgramsOf([]string{"DPRK3"})
	c := chunkEncoder{index: map[string]uint64{}}
	c.add(want)
	got = nil
	if err := decodeChunk(c.encode(), func(e segEntry) error { got = append(got, e); return nil }); err != nil || len(got) != 1 || got[0] != want {
		t.Fatalf("format %d chunk: %+v %v, want %+v", segmentFormat, got, err, want)
	}
}
