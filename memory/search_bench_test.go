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
)

var words = []string{"launch", "orbit", "budget", "review", "garden", "recipe", "invoice", "travel", "meeting", "sensor",
	"deploy", "rocket", "coffee", "report", "ticket", "wallet", "market", "signal", "module", "planet"}

// BenchmarkSearch100k searches one agent holding CAIRN_BENCH_MEMORIES
// memories (default 100000) stored through the service (Pebble and the fs
// blob store), reporting p50 and p99 per query kind.
func BenchmarkSearch100k(b *testing.B) {
	n := benchMemories()
	ctx := context.Background()
	dir := b.TempDir()
	db, err := pebble.Open(dir+"/store", pebble.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	blobs, err := blobfs.New(dir+"/blobs", blobfs.Options{})
	if err != nil {
		b.Fatal(err)
	}
	idx, err := memory.NewIndex(dir + "/index")
	if err != nil {
		b.Fatal(err)
	}
	svc := &memory.Service{Store: db, Audit: db, Blobs: blobs, Index: idx, Clock: cairn.SystemClock{}}
	storeMemories(b, svc, "agent", n)
	for _, tc := range []struct {
		name string
		q    memory.Query
	}{
		{"KeyPrefix", memory.Query{Query: "rocket/planet/"}},
		{"KeySubstring", memory.Query{Query: "t/o"}},
		{"KeyRare", memory.Query{Query: "004242"}},
		{"FullText", memory.Query{ContentQuery: "launch budget"}},
		{"FullTextRare", memory.Query{ContentQuery: "number 4242"}},
		{"TagsAndKey", memory.Query{Query: "orbit/", Tags: []string{"wallet"}}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			lat := make([]time.Duration, 0, b.N)
			for i := 0; i < b.N; i++ {
				s := time.Now()
				hits, err := svc.Search(ctx, "agent", tc.q, "")
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
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += workers {
				content := fmt.Sprintf("%s %s %s note number %d about the %s", words[i%20], words[(i/20)%20], words[(i/400)%20], i, words[(i*7)%20])
				w := &memory.Write{Key: fmt.Sprintf("%s/%s/%06d", words[i%20], words[(i/20)%20], i), Content: &content,
					Metadata: &memory.Metadata{Tags: []string{words[(i/3)%20]}}}
				if _, err := svc.Create(ctx, agent, w); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	b.Logf("stored %d memories in %v", n, time.Since(t0).Round(time.Millisecond))
}
