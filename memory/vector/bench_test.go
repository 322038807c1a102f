package vector

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
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
				f := &Filter{}
				runQueries(b, queries, func(q []float32) { x.TopK("a", "s", q, f, -1, 10) })
			})
			b.Run(fmt.Sprintf("n=%d/dim=%d/reference", n, dim), func(b *testing.B) {
				runQueries(b, queries, func(q []float32) { referenceTopK(fl, q, 10) })
			})
		}
	}
}

func benchVectors(n, dim int) (*Index, [][]float32) {
	r := rand.New(rand.NewPCG(42, uint64(dim)))
	rnd := func() []float32 {
		v := make([]float32, dim)
		for j := range v {
			v[j] = float32(r.NormFloat64())
		}
		Normalize(v)
		return v
	}
	x := New(Config{})
	for i := range n {
		k := fmt.Sprintf("k%07d", i)
		x.Set("a", "s", "m", Meta{Key: k, VersionID: k}, rnd())
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
func referenceTopK(f *flat, q []float32, k int) []Match {
	all := make([]Match, 0, len(f.metas))
	for i := range f.metas {
		var s float32
		v := f.data[i*f.dim : (i+1)*f.dim]
		for j := range q {
			s += q[j] * v[j]
		}
		all = append(all, Match{f.metas[i].Key, f.metas[i].VersionID, s})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Score > all[j].Score })
	return all[:k]
}

// BenchmarkVectorHNSW measures HNSW search (Index.TopK through the
// graph, top 10, no filter) over n vectors of 384 dimensions: build time
// and graph memory per vector, p50 and p99, and recall@10 against the exact
// scan of the same vectors (the share of results scoring at least the
// exact 10th), whose p50 and p99 run beside it as the reference. 200 queries from the data's distribution, not in the index.
// Environment: CAIRN_BENCH_HNSW_N (vector counts, default 100000; a
// million is opt-in: it needs about 2 GB and a long build),
// CAIRN_BENCH_HNSW_SETS (default "embedding,random"; "hash" is hash-v1
// vectors of texts, 512 dimensions), CAIRN_BENCH_HNSW_EF
// (efSearch values, default the service's).
func BenchmarkVectorHNSW(b *testing.B) {
	for _, n := range envInts(b, "CAIRN_BENCH_HNSW_N", "100000") {
		for _, set := range strings.Split(envOr("CAIRN_BENCH_HNSW_SETS", "embedding,random"), ",") {
			r := rand.New(rand.NewPCG(42, uint64(n)))
			var data []float32
			dim := 384
			switch set {
			case "embedding":
				data = embeddingLike(r, n+200, dim)
			case "random":
				data = randomUnit(r, n+200, dim)
			case "hash":
				data, dim = hashTexts(r, n), HashDims
			default:
				b.Fatalf("data set %q", set)
			}
			x := New(Config{})
			for i := range n {
				k := fmt.Sprintf("k%07d", i)
				x.Set("a", "s", "m", Meta{Key: k, VersionID: k}, data[i*dim:(i+1)*dim])
			}
			fl := x.agents["a"]["s"]
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			start := time.Now()
			g := newHNSW(dim, DefaultParams, 1)
			g.data = fl.data
			for i := range n {
				g.insert(uint32(i))
			}
			build := time.Since(start)
			runtime.GC()
			runtime.ReadMemStats(&after)
			fl.g = g
			perVector := float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(n)
			queries := make([][]float32, 200)
			for i := range queries {
				queries[i] = data[(n+i)*dim : (n+i+1)*dim]
			}
			f := &Filter{}
			want := make([][]Match, len(queries))
			for i, q := range queries {
				want[i], _ = fl.exact(q, f, -1, 10)
			}
			for _, ef := range envInts(b, "CAIRN_BENCH_HNSW_EF", strconv.Itoa(DefaultParams.EfSearch)) {
				x.hnsw.Params.EfSearch = ef
				hits := 0
				for i, q := range queries {
					// A hit scores at least the exact 10th (as ann-benchmarks
					// counts): among equal scores either vector is right.
					got, _ := x.TopK("a", "s", q, f, -1, 10)
					for _, g := range got {
						if g.Score >= want[i][len(want[i])-1].Score-1e-6 {
							hits++
						}
					}
				}
				b.Run(fmt.Sprintf("%s/n=%d/hnsw/ef=%d", set, n, ef), func(b *testing.B) {
					runQueries(b, queries, func(q []float32) { x.TopK("a", "s", q, f, -1, 10) })
					b.ReportMetric(float64(hits)/float64(10*len(queries)), "recall@10")
					b.ReportMetric(build.Seconds(), "build-s")
					b.ReportMetric(perVector, "graph-B/vector")
				})
			}
			b.Run(fmt.Sprintf("%s/n=%d/exact", set, n), func(b *testing.B) {
				runQueries(b, queries, func(q []float32) { fl.exact(q, f, -1, 10) })
			})
		}
	}
}

// embeddingLike returns n unit vectors of dim dimensions with the
// low-dimensional structure of text embeddings: points of a mixture of
// 1000 Gaussian clusters (centres at spread 1, clusters of spread 0.5) in
// a latent space of 24 dimensions, mapped to dim dimensions by one random
// linear map, plus isotropic noise of a tenth of the signal.
func embeddingLike(r *rand.Rand, n, dim int) []float32 {
	const latent, clusters = 24, 1000
	proj := make([]float32, latent*dim)
	for i := range proj {
		proj[i] = float32(r.NormFloat64())
	}
	centres := make([]float64, clusters*latent)
	for i := range centres {
		centres[i] = r.NormFloat64()
	}
	data := make([]float32, n*dim)
	z := make([]float32, latent)
	noise := float32(0.1 * math.Sqrt(latent))
	for i := range n {
		c := centres[r.IntN(clusters)*latent:]
		for j := range z {
			z[j] = float32(c[j] + 0.5*r.NormFloat64())
		}
		v := data[i*dim : (i+1)*dim]
		for j := range v {
			v[j] = noise * float32(r.NormFloat64())
		}
		for l, zl := range z {
			row := proj[l*dim : (l+1)*dim]
			for j := range v {
				v[j] += zl * row[j]
			}
		}
		Normalize(v)
	}
	return data
}

func envOr(name, def string) string {
	if s := os.Getenv(name); s != "" {
		return s
	}
	return def
}

func envInts(b *testing.B, name, def string) []int {
	var out []int
	for _, f := range strings.Split(envOr(name, def), ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			b.Fatalf("%s: %q", name, f)
		}
		out = append(out, n)
	}
	return out
}

// hashTexts returns the hash-v1 vectors of n texts of 8 to 40 words drawn
// from a vocabulary of 20000 made-up words with Zipf frequencies, then of
// 200 queries of 2 to 5 words, each taken from one of the texts.
func hashTexts(r *rand.Rand, n int) []float32 {
	const vocab = 20000
	words := make([]string, vocab)
	for i := range words {
		w := make([]byte, 3+r.IntN(7))
		for j := range w {
			w[j] = byte('a' + r.IntN(26))
		}
		words[i] = string(w)
	}
	zipf := rand.NewZipf(r, 1.1, 1, vocab-1)
	texts := make([][]string, n)
	data := make([]float32, 0, (n+200)*HashDims)
	for i := range texts {
		for range 8 + r.IntN(33) {
			texts[i] = append(texts[i], words[zipf.Uint64()])
		}
		data = append(data, HashEmbed(strings.Join(texts[i], " "))...)
	}
	for len(data) < (n+200)*HashDims {
		t := texts[r.IntN(n)]
		k := min(len(t), 2+r.IntN(4))
		s := r.IntN(len(t) - k + 1)
		if v := HashEmbed(strings.Join(t[s:s+k], " ")); v != nil {
			data = append(data, v...)
		}
	}
	return data
}

// BenchmarkHNSWBuild measures the graph build of n vectors of the
// `embedding` set of BenchmarkVectorHNSW (384 dimensions, same seed), with
// the service's parameters: in order on one goroutine (insert, one node at
// a time) and with insertMany on CAIRN_BENCH_HNSW_WORKERS goroutines
// (default GOMAXPROCS), alternated CAIRN_BENCH_BUILD_ROUNDS times (default
// 2) in one process so that both see the same load. Each graph's recall@10
// at the service's efSearch is measured over the 200 queries of
// BenchmarkVectorHNSW against exact search (a hit scores at least the exact
// 10th). Reports the mean build seconds of each, their ratio and the mean
// recalls, and the ratio of the CPU time the builds took (the parallel
// build's extra work); -v logs every round. Environment: CAIRN_BENCH_HNSW_N (one vector
// count, default 100000).
func BenchmarkHNSWBuild(b *testing.B) {
	n := envInts(b, "CAIRN_BENCH_HNSW_N", "100000")[0]
	workers := envInts(b, "CAIRN_BENCH_HNSW_WORKERS", strconv.Itoa(runtime.GOMAXPROCS(0)))[0]
	rounds := envInts(b, "CAIRN_BENCH_BUILD_ROUNDS", "2")[0]
	const dim = 384
	r := rand.New(rand.NewPCG(42, uint64(n)))
	data := embeddingLike(r, n+200, dim)
	base := data[:n*dim]
	tenth := make([]float32, 200)
	for i := range tenth {
		q := data[(n+i)*dim : (n+i+1)*dim]
		ids := exactIDs(base, q, dim, 10, nil)
		tenth[i] = Dot(q, base[int(ids[9])*dim:int(ids[9]+1)*dim])
	}
	ids := make([]uint32, n)
	for i := range ids {
		ids[i] = uint32(i)
	}
	recall10 := func(g *hnsw) float64 {
		hits := 0
		for i := range tenth {
			q := data[(n+i)*dim : (n+i+1)*dim]
			for _, c := range g.search(q, DefaultParams.EfSearch, nil, 0)[:10] {
				if c.sim >= tenth[i]-1e-6 {
					hits++
				}
			}
		}
		return float64(hits) / float64(10*len(tenth))
	}
	// cpu is the CPU time of the process so far (every thread).
	cpu := func() float64 {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			b.Fatal(err)
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
	}
	// timed runs build and returns its wall and CPU seconds.
	timed := func(build func()) (float64, float64) {
		start, c := time.Now(), cpu()
		build()
		return time.Since(start).Seconds(), cpu() - c
	}
	var seqS, parS, seqC, parC, seqR, parR float64
	for round := range rounds {
		g := newHNSW(dim, DefaultParams, 1)
		g.data = base
		s, sc := timed(func() {
			for _, id := range ids {
				g.insert(id)
			}
		})
		rs := recall10(g)

		g = newHNSW(dim, DefaultParams, 1)
		g.data = base
		p, pc := timed(func() { g.insertMany(ids, make(chan struct{}, workers-1), nil) })
		rp := recall10(g)
		b.Logf("round %d: sequential %.1f s (CPU %.1f s) recall@10 %.4f; %d workers %.1f s (CPU %.1f s) recall@10 %.4f; wall ratio %.2f",
			round+1, s, sc, rs, workers, p, pc, rp, s/p)
		seqS, parS, seqC, parC, seqR, parR = seqS+s, parS+p, seqC+sc, parC+pc, seqR+rs, parR+rp
	}
	k := float64(rounds)
	b.ReportMetric(seqS/k, "seq-s")
	b.ReportMetric(parS/k, "par-s")
	b.ReportMetric(seqS/parS, "seq/par")
	b.ReportMetric(parC/seqC, "par/seq-cpu")
	b.ReportMetric(seqR/k, "seq-recall@10")
	b.ReportMetric(parR/k, "par-recall@10")
}
