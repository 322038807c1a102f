package memory

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"
)

// HNSWParams are the parameters of a hierarchical navigable small world
// graph (Malkov and Yashunin, 2016): M links a node per upper layer (2M on
// the bottom layer), EfConstruction candidates are kept while inserting and
// EfSearch while searching (at least the number of results asked for).
type HNSWParams struct {
	M, EfConstruction, EfSearch int
}

// DefaultHNSWParams are the parameters the service uses.
var DefaultHNSWParams = HNSWParams{M: 16, EfConstruction: 200, EfSearch: 96}

// hnsw is a hierarchical navigable small world graph over unit vectors
// that its owner holds: node i is data[i*dim:(i+1)*dim], a vector that
// never changes while the node is in the graph. Similarity is the inner
// product (cosine on unit vectors). Neighbours are chosen with the paper's
// heuristic (a candidate is linked only if it is nearer to the new node
// than to every neighbour already chosen), which keeps clusters connected.
// The graph never deletes: its owner tells search which nodes are live
// (tombstones stay as waypoints) and builds a new graph when too many are
// dead. Inserts must not run concurrently with each other or with searches;
// searches may run concurrently with each other.
type hnsw struct {
	dim, m, m0, efC int
	ml              float64
	data            []float32
	level           []int8     // by node; -1: not in the graph
	links0          []uint32   // by node, m0+1 entries: count, then the bottom layer's neighbours
	upper           [][]uint32 // by node, m+1 entries (count, neighbours) for each layer 1..level
	entry           uint32
	top             int // layer of the entry point; -1: empty graph
	n               int
	rng             *rand.Rand
	visits          sync.Pool // *visited
	scratch         []cand    // insert's candidate list for pruning
}

// cand is a node and its similarity to the vector searched for.
type cand struct {
	id  uint32
	sim float32
}

func newHNSW(dim int, p HNSWParams, seed uint64) *hnsw {
	return &hnsw{dim: dim, m: p.M, m0: 2 * p.M, efC: p.EfConstruction, ml: 1 / math.Log(float64(p.M)),
		top: -1, rng: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))}
}

func (g *hnsw) vec(id uint32) []float32 {
	return g.data[int(id)*g.dim : int(id+1)*g.dim]
}

// has reports whether node id is in the graph.
func (g *hnsw) has(id int) bool { return id < len(g.level) && g.level[id] >= 0 }

// links returns node id's neighbour list at layer lc, its first entry the
// count (capacity m0 on layer 0, m above).
func (g *hnsw) links(id uint32, lc int) []uint32 {
	if lc == 0 {
		return g.links0[int(id)*(g.m0+1) : int(id+1)*(g.m0+1)]
	}
	return g.upper[id][(lc-1)*(g.m+1) : lc*(g.m+1)]
}

func (g *hnsw) neighbours(id uint32, lc int) []uint32 {
	l := g.links(id, lc)
	return l[1 : 1+l[0]]
}

// grow makes room for nodes up to id.
func (g *hnsw) grow(id uint32) {
	for len(g.level) <= int(id) {
		g.level = append(g.level, -1)
		g.upper = append(g.upper, nil)
	}
	if need := (int(id) + 1) * (g.m0 + 1); len(g.links0) < need {
		g.links0 = append(g.links0, make([]uint32, need-len(g.links0))...)
	}
}

func (g *hnsw) randomLevel() int {
	l := int(-math.Log(1-g.rng.Float64()) * g.ml)
	return min(l, 30)
}

// insert links node id, whose vector is in data, into the graph.
func (g *hnsw) insert(id uint32) {
	g.grow(id)
	l := g.randomLevel()
	g.level[id] = int8(l)
	if l > 0 {
		g.upper[id] = make([]uint32, l*(g.m+1))
	}
	g.n++
	if g.top < 0 {
		g.entry, g.top = id, l
		return
	}
	q := g.vec(id)
	ep := cand{g.entry, dot(q, g.vec(g.entry))}
	for lc := g.top; lc > l; lc-- {
		ep = g.greedy(q, ep, lc)
	}
	v := g.visited()
	defer g.visits.Put(v)
	eps := []cand{ep}
	for lc := min(g.top, l); lc >= 0; lc-- {
		w := g.searchLayer(q, eps, g.efC, lc, nil, 0, v)
		nb := g.selectNeighbours(w, g.m)
		own := g.links(id, lc)
		own[0] = uint32(len(nb))
		for i, c := range nb {
			own[1+i] = c.id
		}
		for _, c := range nb {
			g.link(c.id, id, c.sim, lc)
		}
		eps = w
	}
	if l > g.top {
		g.entry, g.top = id, l
	}
}

// link adds id to node n's neighbours at layer lc; a full list is pruned
// with the heuristic over its neighbours and id.
func (g *hnsw) link(n, id uint32, sim float32, lc int) {
	l := g.links(n, lc)
	max := len(l) - 1
	if c := int(l[0]); c < max {
		l[1+c] = id
		l[0]++
		return
	}
	nv := g.vec(n)
	cs := append(g.scratch[:0], cand{id, sim})
	for _, o := range l[1:] {
		cs = append(cs, cand{o, dot(nv, g.vec(o))})
	}
	sortBest(cs)
	keep := g.selectNeighbours(cs, max)
	l[0] = uint32(len(keep))
	for i, c := range keep {
		l[1+i] = c.id
	}
	g.scratch = cs
}

// selectNeighbours keeps up to m of cs (best first) with the heuristic: a
// candidate is kept when it is more similar to the base vector than to any
// candidate kept before it. The result is a new slice.
func (g *hnsw) selectNeighbours(cs []cand, m int) []cand {
	out := make([]cand, 0, m)
	for _, c := range cs {
		if len(out) == m {
			break
		}
		cv := g.vec(c.id)
		ok := true
		for _, o := range out {
			if dot(cv, g.vec(o.id)) > c.sim {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, c)
		}
	}
	return out
}

// greedy walks layer lc from ep to the node most similar to q.
func (g *hnsw) greedy(q []float32, ep cand, lc int) cand {
	for moved := true; moved; {
		moved = false
		for _, n := range g.neighbours(ep.id, lc) {
			if s := dot(q, g.vec(n)); s > ep.sim {
				ep, moved = cand{n, s}, true
			}
		}
	}
	return ep
}

// search returns up to ef nodes most similar to q that accept takes (nil:
// every node), best first, visiting at most budget nodes (0: no limit).
// Nodes accept refuses are still walked through.
func (g *hnsw) search(q []float32, ef int, accept func(uint32) bool, budget int) []cand {
	if g.top < 0 {
		return nil
	}
	ep := cand{g.entry, dot(q, g.vec(g.entry))}
	for lc := g.top; lc > 0; lc-- {
		ep = g.greedy(q, ep, lc)
	}
	v := g.visited()
	defer g.visits.Put(v)
	return g.searchLayer(q, []cand{ep}, ef, 0, accept, budget, v)
}

// searchLayer is the paper's SEARCH-LAYER: a best-first walk of layer lc
// from eps that keeps the ef most similar accepted nodes, best first. It
// stops after visiting budget nodes (0: no limit).
func (g *hnsw) searchLayer(q []float32, eps []cand, ef, lc int, accept func(uint32) bool, budget int, v *visited) []cand {
	v.reset(len(g.level))
	var next candHeap // most similar first
	var res candHeap  // least similar first (negated similarity)
	for _, e := range eps {
		v.see(e.id)
		next.push(e)
		if accept == nil || accept(e.id) {
			res.push(cand{e.id, -e.sim})
		}
	}
	for len(res) > ef {
		res.pop()
	}
	visits := len(eps)
	for len(next) > 0 {
		c := next.pop()
		if len(res) == ef && c.sim < -res[0].sim || budget > 0 && visits >= budget {
			break
		}
		for _, n := range g.neighbours(c.id, lc) {
			if !v.see(n) {
				continue
			}
			visits++
			s := dot(q, g.vec(n))
			if len(res) < ef || s > -res[0].sim {
				next.push(cand{n, s})
				if accept == nil || accept(n) {
					res.push(cand{n, -s})
					if len(res) > ef {
						res.pop()
					}
				}
			}
		}
	}
	out := make([]cand, len(res))
	for i := len(out) - 1; i >= 0; i-- {
		c := res.pop()
		out[i] = cand{c.id, -c.sim}
	}
	return out
}

// sortBest sorts cs most similar first (ties by id).
func sortBest(cs []cand) {
	slices.SortFunc(cs, func(a, b cand) int {
		switch {
		case a.sim > b.sim:
			return -1
		case a.sim < b.sim:
			return 1
		}
		return int(a.id) - int(b.id)
	})
}

// candHeap is a binary max-heap on sim.
type candHeap []cand

func (h *candHeap) push(c cand) {
	*h = append(*h, c)
	s := *h
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if s[p].sim >= s[i].sim {
			break
		}
		s[p], s[i] = s[i], s[p]
		i = p
	}
}

func (h *candHeap) pop() cand {
	s := *h
	top := s[0]
	n := len(s) - 1
	s[0] = s[n]
	s = s[:n]
	i := 0
	for {
		l, r, big := 2*i+1, 2*i+2, i
		if l < n && s[l].sim > s[big].sim {
			big = l
		}
		if r < n && s[r].sim > s[big].sim {
			big = r
		}
		if big == i {
			break
		}
		s[i], s[big] = s[big], s[i]
		i = big
	}
	*h = s
	return top
}

// visited marks the nodes one search has seen; a new generation clears
// every mark at once.
type visited struct {
	mark []uint32
	gen  uint32
}

func (g *hnsw) visited() *visited {
	if v, ok := g.visits.Get().(*visited); ok {
		return v
	}
	return &visited{}
}

func (v *visited) reset(n int) {
	if len(v.mark) < n {
		v.mark = make([]uint32, n+n/4)
		v.gen = 0
	}
	if v.gen++; v.gen == 0 {
		clear(v.mark)
		v.gen = 1
	}
}

// see marks id and reports whether it was unseen.
func (v *visited) see(id uint32) bool {
	if v.mark[id] == v.gen {
		return false
	}
	v.mark[id] = v.gen
	return true
}
