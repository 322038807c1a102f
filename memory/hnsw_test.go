package memory

import (
	"math"
	"math/rand/v2"
	"slices"

	"testing"
)

// randomUnit returns n random normal unit vectors of dim dimensions, one
// contiguous slice.
func randomUnit(r *rand.Rand, n, dim int) []float32 {
	data := make([]float32, n*dim)
	for i := range data {
		data[i] = float32(r.NormFloat64())
	}
	for i := range n {
		normalize(data[i*dim : (i+1)*dim])
	}
	return data
}

// clusteredUnit returns n unit vectors drawn around k random centres
// (noise spread times a centre's norm), as embeddings of texts on k
// topics are.
func clusteredUnit(r *rand.Rand, n, dim, k int, spread float64) []float32 {
	centres := randomUnit(r, k, dim)
	data := make([]float32, n*dim)
	for i := range n {
		c := centres[r.IntN(k)*dim:]
		v := data[i*dim : (i+1)*dim]
		for j := range v {
			v[j] = c[j] + float32(spread*r.NormFloat64()/math.Sqrt(float64(dim)))
		}
		normalize(v)
	}
	return data
}

// exactIDs returns the k nodes of data most similar to q that ok takes.
func exactIDs(data, q []float32, dim, k int, ok func(uint32) bool) []uint32 {
	var cs []cand
	for i := 0; i < len(data)/dim; i++ {
		if ok == nil || ok(uint32(i)) {
			cs = append(cs, cand{uint32(i), dot(q, data[i*dim:(i+1)*dim])})
		}
	}
	sortBest(cs)
	ids := make([]uint32, 0, k)
	for _, c := range cs[:min(k, len(cs))] {
		ids = append(ids, c.id)
	}
	return ids
}

// recall is the share of want found in got.
func recall(got, want []uint32) float64 {
	n := 0
	for _, w := range want {
		if slices.Contains(got, w) {
			n++
		}
	}
	return float64(n) / float64(len(want))
}

func buildGraph(data []float32, dim int, p HNSWParams) *hnsw {
	g := newHNSW(dim, p, 1)
	g.data = data
	for i := range len(data) / dim {
		g.insert(uint32(i))
	}
	return g
}

// TestHNSWRecall checks recall@10 of graph search against exact search
// on a few thousand random and clustered vectors: a quality check of the
// graph's construction (neighbour heuristic, layers), not a timing.
func TestHNSWRecall(t *testing.T) {
	const n, dim, queries = 3000, 32, 100
	r := rand.New(rand.NewPCG(7, 7))
	for _, tc := range []struct {
		name string
		data []float32
	}{
		{"Random", randomUnit(r, n, dim)},
		{"Clustered", clusteredUnit(r, n, dim, 40, 0.6)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := buildGraph(tc.data, dim, DefaultHNSWParams)
			if g.n != n {
				t.Fatalf("%d nodes", g.n)
			}
			qs := randomUnit(r, queries, dim)
			if tc.name == "Clustered" {
				qs = clusteredUnit(r, queries, dim, 40, 0.6)
			}
			total := 0.0
			for i := range queries {
				q := qs[i*dim : (i+1)*dim]
				var got []uint32
				for _, c := range g.search(q, DefaultHNSWParams.EfSearch, nil, 0)[:10] {
					got = append(got, c.id)
				}
				total += recall(got, exactIDs(tc.data, q, dim, 10, nil))
			}
			if rc := total / queries; rc < 0.95 {
				t.Fatalf("recall@10 %.3f < 0.95", rc)
			} else {
				t.Logf("recall@10 %.3f", rc)
			}
		})
	}
}
