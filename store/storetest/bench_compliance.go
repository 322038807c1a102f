package storetest

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
)

// BenchVersionChanges measures VersionChanges at its worst: the first
// page of a version that changed one entry, over a list of n current
// entries and 1,000 history rows, every one of which is read to find it.
func BenchVersionChanges(b *testing.B, s interface {
	CommitListVersion(ctx context.Context, v cairn.ListVersion, added, removed []cairn.ListEntry) error
	VersionChanges(ctx context.Context, v uint64, offset, limit int) ([]cairn.ListChange, error)
}, n int) {
	ctx := context.Background()
	entry := func(i int) cairn.ListEntry {
		return cairn.ListEntry{Family: "evm", Address: fmt.Sprintf("0x%040x", i), Source: "gov_sdn", EntityID: strconv.Itoa(i % 5000),
			EntityName: "Entity " + strconv.Itoa(i%5000), Category: "sanctions", Severity: "critical"}
	}
	all := make([]cairn.ListEntry, n+500)
	for i := range all {
		all[i] = entry(i)
	}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	commits := [][2][]cairn.ListEntry{{all, nil}, {nil, all[n:]}, {[]cairn.ListEntry{entry(n + 1000)}, nil}}
	for i, c := range commits {
		v := cairn.ListVersion{Version: uint64(i + 1), BuiltAt: at.Add(time.Duration(i) * time.Hour), Root: "0x0"}
		if err := s.CommitListVersion(ctx, v, c[0], c[1]); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		cs, err := s.VersionChanges(ctx, 3, 0, 100)
		if err != nil || len(cs) != 1 || !cs[0].Listed {
			b.Fatalf("changes of version 3: %+v %v", cs, err)
		}
	}
}
