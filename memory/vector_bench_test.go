package memory

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"testing"
	"time"
)

// BenchmarkVectorExact measures exact search (top 10 of one agent's
// vectors, no filter) over n random unit vectors of dim dimensions and
// reports p50 and p99 over the queries, beside a reference: a plain dot
// product loop and a full sort of every score. The vectors are random
// normal, so no shortcut applies.
func BenchmarkVectorExact(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		for _, dim := range []int{384, 1536} {
			x, queries := benchVectors(n, dim)
			fl := x.agents["a"]["s"]
			b.Run(fmt.Sprintf("n=%d/dim=%d/index", n, dim), func(b *testing.B) {
				f := &VectorFilter{}
				runQueries(b, queries, func(q []float32) { x.topK("a", "s", q, f, -1, 10) })
			})
			b.Run(fmt.Sprintf("n=%d/dim=%d/reference", n, dim), func(b *testing.B) {
				runQueries(b, queries, func(q []float32) { referenceTopK(fl, q, 10) })
			})
		}
	}
}

func benchVectors(n, dim int) (*Vectors, [][]float32) {
	r := rand.New(rand.NewPCG(42, uint64(dim)))
	rnd := func() []float32 {
		v := make([]float32, dim)
		for j := range v {
			v[j] = float32(r.NormFloat64())
		}
		normalize(v)
		return v
	}
	x := NewVectors()
	for i := range n {
		k := fmt.Sprintf("k%07d", i)
		x.set("a", "s", "m", vecMeta{key: k, versionID: k}, rnd())
	}
	qs := make([][]float32, 64)
	for i := range qs {
		qs[i] = rnd()
	}
	return x, qs
}

// runQueries runs b.N queries and reports their p50 and p99 latency.
func runQueries(b *testing.B, queries [][]float32, search func([]float32)) {
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t := time.Now()
		search(queries[i%len(queries)])
		lat = append(lat, time.Since(t))
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

// referenceTopK is the straightforward way: score every vector with a
// plain loop, sort all scores, keep k.
func referenceTopK(f *flat, q []float32, k int) []scored {
	all := make([]scored, 0, len(f.metas))
	for i := range f.metas {
		var s float32
		v := f.data[i*f.dim : (i+1)*f.dim]
		for j := range q {
			s += q[j] * v[j]
		}
		all = append(all, scored{f.metas[i].key, f.metas[i].versionID, s})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].score > all[j].score })
	return all[:k]
}

// BenchmarkVectorHNSW measures HNSW search over n vectors of 384
// dimensions (n from CAIRN_BENCH_HNSW_N, default 100000; a million is
// opt-in, never in CI): build time and graph memory per vector, p50 and
// p99 of a top-10 search, and recall@10 against the exact scan of the same
// vectors (whose p50/p99 run beside it). Data sets: random normal unit
// vectors (no structure: the hardest case) and clustered ones (unit
// vectors around 1000 centres, as embeddings of texts on many topics).
func BenchmarkVectorHNSW(b *testing.B) {
	n := 100_000
	if s := os.Getenv("CAIRN_BENCH_HNSW_N"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			b.Fatal(err)
		}
	}
	const dim = 384
	for _, set := range []string{"clustered", "random"} {
		r := rand.New(rand.NewPCG(42, 384))
		var data, qs []float32
		if set == "random" {
			data, qs = randomUnit(r, n, dim), randomUnit(r, 200, dim)
		} else {
			data, qs = clusteredUnit(r, n+200, dim, 1000, 0.6), nil
			data, qs = data[:n*dim], data[n*dim:]
		}
		x := NewVectors()
		for i := range n {
			k := fmt.Sprintf("k%07d", i)
			x.set("a", "s", "m", vecMeta{key: k, versionID: k}, data[i*dim:(i+1)*dim])
		}
		fl := x.agents["a"]["s"]
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		start := time.Now()
		g := newHNSW(dim, DefaultHNSWParams, 1)
		g.data = fl.data
		for i := range n {
			g.insert(uint32(i))
		}
		build := time.Since(start)
		runtime.GC()
		runtime.ReadMemStats(&after)
		fl.g = g
		queries := make([][]float32, 200)
		for i := range queries {
			queries[i] = qs[i*dim : (i+1)*dim]
		}
		f := &VectorFilter{}
		hits := 0
		for _, q := range queries {
			got, _ := x.topK("a", "s", q, f, -1, 10)
			want, _ := fl.exact(q, f, -1, 10)
			for _, w := range want {
				if slices.ContainsFunc(got, func(s scored) bool { return s.key == w.key }) {
					hits++
				}
			}
		}
		b.Run(fmt.Sprintf("%s/n=%d/hnsw", set, n), func(b *testing.B) {
			runQueries(b, queries, func(q []float32) { x.topK("a", "s", q, f, -1, 10) })
			b.ReportMetric(float64(hits)/float64(10*len(queries)), "recall@10")
			b.ReportMetric(build.Seconds(), "build-s")
			b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/float64(n), "graph-B/vector")
		})
		b.Run(fmt.Sprintf("%s/n=%d/exact", set, n), func(b *testing.B) {
			runQueries(b, queries, func(q []float32) { fl.exact(q, f, -1, 10) })
		})
	}
}
