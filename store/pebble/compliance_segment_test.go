package pebble

import (
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
			{cairn.ListEntry{Family: family, Address: addr, Source: source, EntityID: entity, EntityName: name, Category: "sanctions", Severity: "critical"}, since},
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
