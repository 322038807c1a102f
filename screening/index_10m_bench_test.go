package screening

import (
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"
)

// BenchmarkIndex10M builds an index of 10M synthetic EVM listings once
// (time and heap kept per address), then screens 100-address batches and
// makes proofs against it. It needs about 6 GB and a minute, so it runs
// only with CAIRN_BENCH_10M=1.
func BenchmarkIndex10M(b *testing.B) {
	if os.Getenv("CAIRN_BENCH_10M") == "" {
		b.Skip("set CAIRN_BENCH_10M=1 to build a 10M-address index")
	}
	const n = 10_000_000
	ls := syntheticListings(n)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	ix, err := Build(1, time.Now(), ls)
	if err != nil {
		b.Fatal(err)
	}
	took := time.Since(start)
	runtime.GC()
	runtime.ReadMemStats(&after)
	fmt.Printf("build 10M: %s, %.1f heap B/addr\n", took.Round(time.Millisecond), float64(after.HeapAlloc-before.HeapAlloc)/n)
	qs := batch100(ls)
	b.Run("Screen100", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := ix.Screen(qs, true); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Proof", func(b *testing.B) { benchProof(b, ix, ls) })
	runtime.KeepAlive(ix)
}
