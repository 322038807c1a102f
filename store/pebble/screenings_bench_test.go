package pebble_test

import (
	"context"
	"math"
	"testing"
	"time"
)

// BenchmarkTakeFree measures the free-tier writes on disk, one at a time:
// a take inside an open window (committed without a WAL sync), a take that
// opens a window (synced: the cost every take would have if all were
// synced), a give back (synced) and the screening counter (no sync).
func BenchmarkTakeFree(b *testing.B) {
	ctx := context.Background()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	b.Run("InWindow", func(b *testing.B) {
		db := openBench(b, false)
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			if _, err := db.TakeFree(ctx, "dev", 1, math.MaxInt32, time.Hour, t0); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("OpensWindow", func(b *testing.B) {
		db := openBench(b, false)
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			if _, err := db.TakeFree(ctx, "dev", 1, 10, time.Hour, t0.Add(time.Duration(i)*time.Hour)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("GiveBack", func(b *testing.B) {
		db := openBench(b, false)
		ft, err := db.TakeFree(ctx, "dev", 1, 10, time.Hour, t0)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if err := db.GiveBackFree(ctx, "dev", ft.Start, 1); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			if _, err := db.TakeFree(ctx, "dev", 1, 10, time.Hour, t0); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
	})
	b.Run("AddScreenings", func(b *testing.B) {
		db := openBench(b, false)
		b.ReportAllocs()
		for b.Loop() {
			if err := db.AddScreenings(ctx, 1); err != nil {
				b.Fatal(err)
			}
		}
	})
}
