package memory_test

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	blobfs "github.com/cairn-dev/cairn/blob/fs"
	"github.com/cairn-dev/cairn/memory"
	"github.com/cairn-dev/cairn/store/pebble"
	"github.com/cairn-dev/cairn/store/postgres"
	"github.com/cairn-dev/cairn/store/postgres/pgtest"
)

var words = []string{"launch", "orbit", "budget", "review", "garden", "recipe", "invoice", "travel", "meeting", "sensor",
	"deploy", "rocket", "coffee", "report", "ticket", "wallet", "market", "signal", "module", "planet"}

// BenchmarkSearch100k searches one agent holding CAIRN_BENCH_MEMORIES
// memories (default 100000) stored through the service, reporting p50 and
// p99 per query kind and store: "pebble" (Pebble, blob/fs and the bleve
// index) always; with CAIRN_TEST_POSTGRES_URL also "postgres" (the store
// searches: a new schema, dropped at the end) and "postgres-notrgm" (the
// same where pg_trgm cannot be created: a new database, dropped at the
// end), each vacuumed and analyzed after the load. CAIRN_BENCH_ROUNDS (default 1) rounds, each query kind on every
// store in turn, so that the stores alternate.
func BenchmarkSearch100k(b *testing.B) {
	n := benchMemories()
	rounds := 1
	if v, err := strconv.Atoi(os.Getenv("CAIRN_BENCH_ROUNDS")); err == nil && v > 0 {
		rounds = v
	}
	ctx := context.Background()
	type target struct {
		name string
		svc  *memory.Service
		pg   *postgres.DB
	}
	dir := b.TempDir()
	blobs := func(name string) *blobfs.Store {
		bs, err := blobfs.New(dir+"/blobs-"+name, blobfs.Options{})
		if err != nil {
			b.Fatal(err)
		}
		return bs
	}
	db, err := pebble.Open(dir+"/store", pebble.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	idx, err := memory.NewIndex(dir + "/index")
	if err != nil {
		b.Fatal(err)
	}
	targets := []target{{"pebble", &memory.Service{Store: db, Audit: db, Blobs: blobs("pebble"), Index: idx, Clock: cairn.SystemClock{}}, nil}}
	if url := os.Getenv("CAIRN_TEST_POSTGRES_URL"); url != "" {
		pg, err := postgres.Open(ctx, url, postgres.Options{Schema: pgtest.Schema(b, url)})
		if err != nil {
			b.Fatal(err)
		}
		defer pg.Close()
		targets = append(targets, target{"postgres", &memory.Service{Store: pg, Audit: pg, Blobs: blobs("postgres"), Clock: cairn.SystemClock{}}, pg})
		pgn, err := postgres.Open(ctx, pgtest.NewUnprivileged(b, url).Schema(b), postgres.Options{})
		if err != nil {
			b.Fatal(err)
		}
		defer pgn.Close()
		targets = append(targets, target{"postgres-notrgm", &memory.Service{Store: pgn, Audit: pgn, Blobs: blobs("postgres-notrgm"), Clock: cairn.SystemClock{}}, pgn})
	}
	for _, tg := range targets {
		b.Logf("%s:", tg.name)
		storeMemories(b, tg.svc, "agent", n)
		if tg.pg != nil {
			// What autovacuum does after a bulk load, when it gets to it:
			// without statistics the planner guesses a few rows per agent.
			if _, err := tg.pg.Pool().Exec(ctx, "VACUUM ANALYZE memories, memory_search"); err != nil {
				b.Fatal(err)
			}
		}
	}
	kinds := []struct {
		name string
		q    memory.Query
	}{
		{"KeyPrefix", memory.Query{Query: "rocket/planet/"}},
		{"KeySubstring", memory.Query{Query: "t/o"}},
		{"KeyRare", memory.Query{Query: "004242"}},
		{"FullText", memory.Query{ContentQuery: "launch budget"}},
		{"FullTextRare", memory.Query{ContentQuery: "number 4242"}},
		{"TagsAndKey", memory.Query{Query: "orbit/", Tags: []string{"wallet"}}},
	}
	for r := 1; r <= rounds; r++ {
		for _, tc := range kinds {
			for _, tg := range targets {
				name := tc.name + "/" + tg.name
				if rounds > 1 {
					name = "round" + strconv.Itoa(r) + "/" + name
				}
				b.Run(name, func(b *testing.B) {
					lat := make([]time.Duration, 0, b.N)
					for i := 0; i < b.N; i++ {
						s := time.Now()
						hits, err := tg.svc.Search(ctx, "agent", tc.q, "")
						if err != nil || len(hits) == 0 {
							b.Fatalf("search: %d hits, %v", len(hits), err)
						}
						lat = append(lat, time.Since(s))
					}
					sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
					b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
					b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
				})
			}
		}
	}
}

// benchMemories is CAIRN_BENCH_MEMORIES, 100000 when unset.
func benchMemories() int {
	if v, err := strconv.Atoi(os.Getenv("CAIRN_BENCH_MEMORIES")); err == nil && v > 0 {
		return v
	}
	return 100_000
}

// storeMemories creates n memories of the agent through svc, 32 at a
// time: keys of three words and a number, contents of five words, a tag.
func storeMemories(b *testing.B, svc *memory.Service, agent string, n int) {
	ctx := context.Background()
	t0 := time.Now()
	var wg sync.WaitGroup
	const workers = 32
	for w := 0; w < workers; w++ {
		wg.Go(func() {
			for i := w; i < n; i += workers {
				content := fmt.Sprintf("%s %s %s note number %d about the %s", words[i%20], words[(i/20)%20], words[(i/400)%20], i, words[(i*7)%20])
				w := &memory.Write{Key: fmt.Sprintf("%s/%s/%06d", words[i%20], words[(i/20)%20], i), Content: &content,
					Metadata: &memory.Metadata{Tags: []string{words[(i/3)%20]}}}
				if _, err := svc.Create(ctx, agent, w); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	b.Logf("stored %d memories in %v", n, time.Since(t0).Round(time.Millisecond))
}
