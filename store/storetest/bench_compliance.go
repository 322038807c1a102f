package storetest

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
)

// BenchVersionChanges measures pages of VersionChanges as the API reads
// them (101 changes: a page of 100 and one to tell whether there are
// more) of a version that changed 1,000 entries (delisted 500, listed
// 500) over a list of n current entries and 2,000 history rows: the first
// page, and the last, at offset 900, which crosses from the history rows
// to the current entries.
func BenchVersionChanges(b *testing.B, s interface {
	CommitListVersion(ctx context.Context, v cairn.ListVersion, added, removed []cairn.ListEntry) error
	VersionChanges(ctx context.Context, v uint64, offset, limit int) ([]cairn.ListChange, error)
}, n int) {
	ctx := context.Background()
	entry := func(i int) cairn.ListEntry {
		return cairn.ListEntry{Family: "evm", Address: fmt.Sprintf("0x%040x", i), Source: "gov_sdn", EntityID: strconv.Itoa(i % 5000),
			EntityName: "Entity " + strconv.Itoa(i%5000), Category: "sanctions", Severity: "critical"}
	}
	all := make([]cairn.ListEntry, n+1500)
	for i := range all {
		all[i] = entry(i)
	}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	commits := [][2][]cairn.ListEntry{{all[:n+1000], nil}, {nil, all[n : n+500]}, {all[n+1000:], all[n+500 : n+1000]}}
	for i, c := range commits {
		v := cairn.ListVersion{Version: uint64(i + 1), BuiltAt: at.Add(time.Duration(i) * time.Hour), Root: "0x0"}
		if err := s.CommitListVersion(ctx, v, c[0], c[1]); err != nil {
			b.Fatal(err)
		}
	}
	for _, page := range []struct{ offset, want int }{{0, 101}, {900, 100}} {
		b.Run(fmt.Sprintf("offset=%d", page.offset), func(b *testing.B) {
			for b.Loop() {
				cs, err := s.VersionChanges(ctx, 3, page.offset, 101)
				if err != nil || len(cs) != page.want || cs[len(cs)-1].Listed != (page.offset > 0) {
					b.Fatalf("changes of version 3 at %d: %d, %v", page.offset, len(cs), err)
				}
			}
		})
	}
}
