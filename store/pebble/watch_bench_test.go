package pebble

import (
	"context"
	"fmt"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/cockroachdb/pebble/v2"
)

// synthEntries are n sanctions entries of EVM addresses 0x<i as 40 hex
// digits>, made on demand by position (in key order, as a version's
// changes are read): a list of ten million without holding it.
type synthEntries int

func (s synthEntries) Len() int { return int(s) }

func (s synthEntries) At(i int) cairn.ListEntry {
	return cairn.ListEntry{Family: "evm", Address: fmt.Sprintf("0x%040x", i), Source: "gov_sdn", EntityID: "e"}
}

// BenchmarkWatchIntersection is the cost of intersecting a version's
// changes with the index of watched addresses (watchHits, what a commit
// adds to find its alerts): a version adding ten million entries, with
// 100,000 watched addresses of which every one (hit) or none (miss) is
// among them, and a version of 1,000 changes against the same index.
func BenchmarkWatchIntersection(b *testing.B) {
	for _, tc := range []struct {
		name    string
		changes int
		stride  int // watched address i*stride; the list holds those below changes
		offset  int
	}{
		{"10M-changes/100k-watched-all-hit", 10_000_000, 100, 0},
		{"10M-changes/100k-watched-none-hit", 10_000_000, 100, 10_000_000},
		{"1k-changes/100k-watched", 1_000, 100, 0},
	} {
		b.Run(tc.name, func(b *testing.B) {
			db, err := Open("", Options{InMemory: true})
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			const watched = 100_000
			for lo := 0; lo < watched; lo += 1000 {
				w := &cairn.Watchlist{ID: cairn.NewID(), DeveloperID: fmt.Sprintf("d%d", lo/1000), Name: "w"}
				addrs := make([]cairn.WatchedAddress, 1000)
				for j := range addrs {
					a := fmt.Sprintf("0x%040x", tc.offset+(lo+j)*tc.stride)
					addrs[j] = cairn.WatchedAddress{Family: "evm", Address: a, Input: a, Chain: "ethereum"}
				}
				if err := db.CreateWatchlist(context.Background(), w, addrs, nil); err != nil {
					b.Fatal(err)
				}
			}
			if err := db.db.Flush(); err != nil { // the index on disk, as in a store that has run a while
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				it, err := db.db.NewIter(&pebble.IterOptions{LowerBound: []byte(watchIndex), UpperBound: prefixEnd([]byte(watchIndex))})
				if err != nil {
					b.Fatal(err)
				}
				hits, err := watchHits(context.Background(), it, synthEntries(tc.changes), true, nil)
				it.Close()
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(len(hits)), "hits")
			}
		})
	}
}

var _ store.Entries = synthEntries(0)
