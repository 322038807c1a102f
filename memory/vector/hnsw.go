package vector

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
)

// Params are the parameters of a hierarchical navigable small world
// graph (Malkov and Yashunin, 2016): M links a node per upper layer (2M on
// the bottom layer), EfConstruction candidates are kept while inserting and
// EfSearch while searching (at least the number of results asked for).
type Params struct {
	M, EfConstruction, EfSearch int
}

// DefaultParams are the parameters the service uses.
var DefaultParams = Params{M: 16, EfConstruction: 200, EfSearch: 96}

// hnsw is a hierarchical navigable small world graph over unit vectors
// that its owner holds: node i is data[i*dim:(i+1)*dim], a vector that
// never changes while the node is in the graph. Similarity is the inner
// product (cosine on unit vectors). Neighbours are chosen with the paper's
// heuristic (a candidate is linked only if it is nearer to the new node
// than to every neighbour already chosen), which keeps clusters connected.
// The graph never deletes: its owner tells search which nodes are live
// (tombstones stay as waypoints) and builds a new graph when too many are
// dead.
//
// insertMany links many nodes on several goroutines at once, as hnswlib
// does: each node's neighbour lists are guarded by that node's lock
// (locks[id]), which a goroutine holds only while it copies a list or
// changes it, never while taking another lock, and the entry point by
// epMu, held through the whole insert of a node that raises the top layer.
// Searches read lists the same way, so they may run during insertMany.
// insert (one node) and insertMany must not run concurrently with each
// other: they grow the per-node arrays.
type hnsw struct {
	dim, m, m0, efC int
	ml              float64
	data            []float32
	level           []int8       // by node; -1: not in the graph
	links0          []uint32     // by node, m0+1 entries: count, then the bottom layer's neighbours
	upper           [][]uint32   // by node, m+1 entries (count, neighbours) for each layer 1..level
	locks           []sync.Mutex // by node: guards its lists in links0 and upper
	epMu            sync.Mutex   // guards entry, top and n
	entry           uint32
	top             int // layer of the entry point; -1: empty graph
	n               int
	rng             *rand.Rand
	visits          sync.Pool // *visited
}

// inserter is one inserting goroutine's scratch space.
type inserter struct {
	prune []cand   // candidates when a full neighbour list is pruned
	nb    []uint32 // a copy of one neighbour list
}

// cand is a node and its similarity to the vector searched for.
type cand struct {
	id  uint32
	sim float32
}

func newHNSW(dim int, p Params, seed uint64) *hnsw {
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

// neighbours copies node id's neighbours at layer lc into buf, under the
// node's lock: an insert may be changing the list.
func (g *hnsw) neighbours(id uint32, lc int, buf []uint32) []uint32 {
	g.locks[id].Lock()
	l := g.links(id, lc)
	buf = append(buf[:0], l[1:1+l[0]]...)
	g.locks[id].Unlock()
	return buf
}

// grow makes room for nodes up to id.
func (g *hnsw) grow(id uint32) {
	if n := int(id) + 1 - len(g.level); n > 0 {
		g.level = append(g.level, slices.Repeat([]int8{-1}, n)...)
		g.upper = append(g.upper, make([][]uint32, n)...)
		g.locks = append(g.locks, make([]sync.Mutex, n)...)
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
	g.place(id, g.randomLevel())
	g.connect(&inserter{}, id)
}

// place gives node id level l and its upper-layer lists, before it is
// linked.
func (g *hnsw) place(id uint32, l int) {
	g.level[id] = int8(l)
	if l > 0 {
		g.upper[id] = make([]uint32, l*(g.m+1))
	}
}

// insertBatch is how many nodes an insertMany goroutine takes at a time.
const insertBatch = 16

// insertMany inserts ids, whose vectors are in data, as insert would one
// by one (levels drawn in the same order), on the calling goroutine and on
// helpers: after each batch of nodes, the caller starts a helper for each
// token it can put in tokens without waiting (nil: none), and a helper
// gives its token back after each batch and goes on only if it can take
// one again at once, so that a build waiting for a token gets it within a
// batch. It stops early when stop (nil: never), checked before each
// batch, reports true; the nodes not linked by then are in the graph (has
// reports them) with no links, so the graph must then be thrown away.
func (g *hnsw) insertMany(ids []uint32, tokens chan struct{}, stop func() bool) {
	if len(ids) == 0 {
		return
	}
	g.grow(slices.Max(ids))
	for _, id := range ids {
		g.place(id, g.randomLevel())
	}
	var next atomic.Int64
	batch := func(w *inserter) bool {
		i := int(next.Add(insertBatch)) - insertBatch
		if i >= len(ids) || stop != nil && stop() {
			return false
		}
		for _, id := range ids[i:min(i+insertBatch, len(ids))] {
			g.connect(w, id)
		}
		return true
	}
	var wg sync.WaitGroup
	helper := func() {
		defer wg.Done()
		var w inserter
		for {
			more := batch(&w)
			<-tokens
			if !more {
				return
			}
			select {
			case tokens <- struct{}{}:
			default:
				return
			}
		}
	}
	var w inserter
	for batch(&w) {
		for tokens != nil && int(next.Load()) < len(ids) {
			select {
			case tokens <- struct{}{}:
				wg.Add(1)
				go helper()
				continue
			default:
			}
			break
		}
	}
	wg.Wait()
}

// connect links node id, placed, into the graph.
func (g *hnsw) connect(w *inserter, id uint32) {
	l := int(g.level[id])
	g.epMu.Lock()
	g.n++
	if g.top < 0 {
		g.entry, g.top = id, l
		g.epMu.Unlock()
		return
	}
	entry, top := g.entry, g.top
	if l > top {
		// The new entry point: no other insert starts until its lists
		// are complete (hnswlib holds its global lock the same way).
		defer func() {
			g.entry, g.top = id, l
			g.epMu.Unlock()
		}()
	} else {
		g.epMu.Unlock()
	}
	q := g.vec(id)
	ep := cand{entry, Dot(q, g.vec(entry))}
	for lc := top; lc > l; lc-- {
		ep = g.greedy(q, ep, lc, &w.nb)
	}
	v := g.visited()
	defer g.visits.Put(v)
	eps := []cand{ep}
	for lc := min(top, l); lc >= 0; lc-- {
		res := g.searchLayer(q, eps, g.efC, lc, nil, 0, v, &w.nb)
		nb := g.selectNeighbours(res, g.m)
		g.locks[id].Lock()
		own := g.links(id, lc)
		own[0] = uint32(len(nb))
		for i, c := range nb {
			own[1+i] = c.id
		}
		g.locks[id].Unlock()
		for _, c := range nb {
			g.link(w, c.id, id, c.sim, lc)
		}
		eps = res
	}
}

// link adds id to node n's neighbours at layer lc, under n's lock; a full
// list is pruned with the heuristic over its neighbours and id.
func (g *hnsw) link(w *inserter, n, id uint32, sim float32, lc int) {
	g.locks[n].Lock()
	defer g.locks[n].Unlock()
	l := g.links(n, lc)
	max := len(l) - 1
	if c := int(l[0]); c < max {
		l[1+c] = id
		l[0]++
		return
	}
	nv := g.vec(n)
	cs := append(w.prune[:0], cand{id, sim})
	for _, o := range l[1:] {
		cs = append(cs, cand{o, Dot(nv, g.vec(o))})
	}
	sortBest(cs)
	keep := g.selectNeighbours(cs, max)
	l[0] = uint32(len(keep))
	for i, c := range keep {
		l[1+i] = c.id
	}
	w.prune = cs
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
			if Dot(cv, g.vec(o.id)) > c.sim {
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

// greedy walks layer lc from ep to the node most similar to q; buf holds
// a copy of a neighbour list.
func (g *hnsw) greedy(q []float32, ep cand, lc int, buf *[]uint32) cand {
	for moved := true; moved; {
		moved = false
		*buf = g.neighbours(ep.id, lc, *buf)
		for _, n := range *buf {
			if s := Dot(q, g.vec(n)); s > ep.sim {
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
	g.epMu.Lock()
	entry, top := g.entry, g.top
	g.epMu.Unlock()
	if top < 0 {
		return nil
	}
	buf := make([]uint32, 0, g.m0)
	ep := cand{entry, Dot(q, g.vec(entry))}
	for lc := top; lc > 0; lc-- {
		ep = g.greedy(q, ep, lc, &buf)
	}
	v := g.visited()
	defer g.visits.Put(v)
	return g.searchLayer(q, []cand{ep}, ef, 0, accept, budget, v, &buf)
}

// searchLayer is the paper's SEARCH-LAYER: a best-first walk of layer lc
// from eps that keeps the ef most similar accepted nodes, best first. It
// stops after visiting budget nodes (0: no limit). buf holds a copy of a
// neighbour list.
func (g *hnsw) searchLayer(q []float32, eps []cand, ef, lc int, accept func(uint32) bool, budget int, v *visited, buf *[]uint32) []cand {
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
		*buf = g.neighbours(c.id, lc, *buf)
		for _, n := range *buf {
			if !v.see(n) {
				continue
			}
			visits++
			s := Dot(q, g.vec(n))
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
