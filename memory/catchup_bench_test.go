package memory_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	blobfs "github.com/cairn-dev/cairn/blob/fs"
	"github.com/cairn-dev/cairn/memory"
	"github.com/cairn-dev/cairn/memory/vector"
	"github.com/cairn-dev/cairn/store/postgres"
	"github.com/cairn-dev/cairn/store/postgres/pgtest"
)

// BenchmarkCatchUpPostgres measures the periodic catch-up of an instance
// sharing a PostgreSQL store (CAIRN_TEST_POSTGRES_URL) with
// CAIRN_BENCH_MEMORIES memories (default 100000) of one agent, stored
// through the service, as `cairn serve` holds them (no full-text index of
// its own, vectors of the hash space): a CatchUp when nothing changed, one
// after another instance wrote one memory, and, for reference, the index
// build at start (Rebuild into empty vectors).
func BenchmarkCatchUpPostgres(b *testing.B) {
	url := pgtest.URL(b)
	ctx := context.Background()
	db, err := postgres.Open(ctx, url, postgres.Options{Schema: pgtest.Schema(b, url), MaxConns: 32})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	blobs, err := blobfs.New(b.TempDir(), blobfs.Options{})
	if err != nil {
		b.Fatal(err)
	}
	service := func() *memory.Service {
		vecs := vector.New(vector.Config{})
		b.Cleanup(vecs.Close)
		return &memory.Service{Store: db, Audit: db, Blobs: blobs, Vectors: vecs, Clock: cairn.SystemClock{}}
	}
	svc, other := service(), service()
	n := benchMemories()
	storeMemories(b, svc, "agent", n)
	// Five rounds each iteration (run it with -benchtime 1x: each
	// iteration count fills the store anew), the three alternating in
	// each round: the medians are reported.
	var unchanged, oneChanged, rebuild []time.Duration
	timed := func(into *[]time.Duration, fn func()) {
		t0 := time.Now()
		fn()
		*into = append(*into, time.Since(t0))
	}
	b.ResetTimer()
	for i := 0; i < 5*b.N; i++ {
		timed(&unchanged, func() {
			if got, err := svc.CatchUp(ctx); err != nil || got != 0 {
				b.Fatalf("CatchUp: %d changed, %v", got, err)
			}
		})
		content := "one more note"
		if _, err := other.Create(ctx, "agent", &memory.Write{Key: "more/" + cairn.NewID(), Content: &content}); err != nil {
			b.Fatal(err)
		}
		timed(&oneChanged, func() {
			if got, err := svc.CatchUp(ctx); err != nil || got != 1 {
				b.Fatalf("CatchUp: %d changed, %v", got, err)
			}
		})
		fresh := service()
		timed(&rebuild, func() {
			if _, err := fresh.Rebuild(ctx); err != nil {
				b.Fatal(err)
			}
		})
	}
	b.StopTimer()
	median := func(d []time.Duration) float64 {
		slices.Sort(d)
		return float64(d[len(d)/2].Microseconds()) / 1000
	}
	b.ReportMetric(median(unchanged), "unchanged-ms")
	b.ReportMetric(median(oneChanged), "one-changed-ms")
	b.ReportMetric(median(rebuild), "rebuild-ms")
	b.ReportMetric(median(unchanged)/median(rebuild), "unchanged/rebuild")
}
