package vector

import (
	"container/heap"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Index is the vector index: per agent and embedding space, the unit
// vectors of the keys in one contiguous float32 slice, searched exactly
// (every vector scored). Its owner keeps it in line with its records (see
// memory.Service, which fills it at start and after each write).
//
// A space other than hash-v1 that holds at least the HNSW threshold of
// vectors also gets an HNSW graph over the same slice (see hnsw and
// graph.go), built and kept up to date by a background worker;
// searches use it and fall back to the exact scan when too few of its
// candidates pass a filter.
type Index struct {
	mu     sync.RWMutex
	agents map[string]map[string]*flat // agent -> space -> vectors
	hnsw   Config
	// workers counts the running graph workers; idle is signalled when
	// one stops.
	workers int
	idle    sync.Cond
	closed  atomic.Bool
	// builds holds a token per goroutine building a graph, at most half
	// the CPUs: a build waits for one, then takes the free ones too (see
	// hnsw.insertMany), and gives those back to a build that waits.
	builds chan struct{}
	stats  vectorCounters
}

// Config turns on HNSW graphs: a space of an agent (not hash-v1) that
// holds at least Threshold vectors (0: never) is searched through a graph
// with Params.
type Config struct {
	Threshold int
	Params    Params
}

// New returns an empty vector index that searches through an HNSW graph
// the spaces of at least c.Threshold vectors (zero: every space exactly);
// zero parameters take DefaultParams.
func New(c Config) *Index {
	if c.Params == (Params{}) {
		c.Params = DefaultParams
	}
	x := &Index{agents: map[string]map[string]*flat{}, hnsw: c, builds: make(chan struct{}, max(1, runtime.GOMAXPROCS(0)/2))}
	x.idle.L = &x.mu
	return x
}

// flat is one agent's vectors of one space. Slot i is
// data[i*dim:(i+1)*dim]; a freed slot (key "") is reused by the next add,
// unless a graph holds it (see graph.go).
type flat struct {
	dim   int
	model string
	data  []float32
	metas []Meta
	slot  map[string]int // key -> slot
	free  []int
	// exactOnly: never a graph. hash-v1 vectors are sparse lexical
	// features: most pairs score 0, which leaves a graph search no
	// gradient to follow (recall@10 0.83 at efSearch 96 on 20k texts, see
	// BENCHMARKS.md), so that space is always scanned exactly.
	exactOnly bool
	graphState
}

// Meta is what the filters of a vector search read without the store;
// importance and expiry, which change without a new version, are checked
// against the store.
type Meta struct {
	Key, VersionID, Type, Visibility string
	Tags                             []string
}

// spaceOf returns the agent's space, creating it with dim and model when
// create is set and it does not exist. The caller holds mu.
func (x *Index) spaceOf(agent, space string, dim int, model string, create bool) *flat {
	sp := x.agents[agent]
	if sp == nil {
		if !create {
			return nil
		}
		sp = map[string]*flat{}
		x.agents[agent] = sp
	}
	f := sp[space]
	if f == nil && create {
		f = &flat{dim: dim, model: model, slot: map[string]int{}, exactOnly: space == SpaceHash}
		sp[space] = f
	}
	return f
}

// Dims returns the dimension and model fixed for the agent's space (by its
// first vector), ok false when the space holds no vector yet.
func (x *Index) Dims(agent, space string) (dim int, model string, ok bool) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	if f := x.spaceOf(agent, space, 0, "", false); f != nil {
		return f.dim, f.model, true
	}
	return 0, "", false
}

// reserve fixes the dimension and model of the agent's space if it has
// none yet and reports whether dim and model agree with it.
func (x *Index) Reserve(agent, space string, dim int, model string) (int, string, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	f := x.spaceOf(agent, space, dim, model, true)
	return f.dim, f.model, f.dim == dim && f.model == model
}

// set indexes vec (unit length, of the space's dimension) as the vector of
// m's key in space, replacing the key's previous vector there.
func (x *Index) Set(agent, space, model string, meta Meta, vec []float32) {
	x.mu.Lock()
	defer x.mu.Unlock()
	f := x.spaceOf(agent, space, len(vec), model, true)
	if f.dim != len(vec) {
		return // a concurrent first vector fixed another dimension
	}
	i, ok := f.slot[meta.Key]
	if ok && f.held(i) {
		if slices.Equal(f.vec(i), vec) {
			f.metas[i] = meta // a graph's vector never changes
			return
		}
		f.release(i)
		ok = false
	}
	if !ok {
		if n := len(f.free); n > 0 {
			i, f.free = f.free[n-1], f.free[:n-1]
		} else {
			i = len(f.metas)
			f.metas = append(f.metas, Meta{})
			f.data = append(f.data, make([]float32, f.dim)...)
			f.st = append(f.st, 0)
		}
		f.slot[meta.Key] = i
	}
	copy(f.vec(i), vec)
	f.metas[i] = meta
	f.added(i)
	x.schedule(f)
}

func (f *flat) vec(i int) []float32 { return f.data[i*f.dim : (i+1)*f.dim] }

// release frees slot i: for reuse, or as a tombstone while a graph holds it.
func (f *flat) release(i int) {
	delete(f.slot, f.metas[i].Key)
	f.metas[i] = Meta{}
	if f.held(i) {
		f.dead = append(f.dead, i)
		return
	}
	clear(f.vec(i))
	f.free = append(f.free, i)
}

// drop removes the key's vector from every space of the agent except keep.
func (x *Index) Drop(agent, key string, keep map[string]bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for name, f := range x.agents[agent] {
		if keep[name] {
			continue
		}
		if i, ok := f.slot[key]; ok {
			f.release(i)
			x.schedule(f)
		}
	}
}

// Filter restricts a vector search; zero fields do not filter.
type Filter struct {
	Type, Visibility, KeyPrefix string
	Tags                        []string
	MinImportance               float64
}

func (f *Filter) match(m *Meta) bool {
	return m.Key != "" && (f.Type == "" || m.Type == f.Type) && (f.Visibility == "" || m.Visibility == f.Visibility) &&
		strings.HasPrefix(m.Key, f.KeyPrefix) && HasTags(m.Tags, f.Tags)
}

// HasTags reports whether have holds every tag of want.
func HasTags(have, want []string) bool {
	for _, w := range want {
		found := false
		for _, h := range have {
			if h == w {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// Match is a search candidate.
type Match struct {
	Key, VersionID string
	Score          float32
}

// TopK returns up to k of the agent's vectors in space that pass filter
// and score at least minScore against q (unit length), best first, and
// how many passed in all, or -1 when a graph search found k and did not
// count the others.
func (x *Index) TopK(agent, space string, q []float32, f *Filter, minScore float32, k int) ([]Match, int) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	fl := x.spaceOf(agent, space, 0, "", false)
	if fl == nil || fl.dim != len(q) {
		return nil, 0
	}
	if fl.g != nil {
		if out, n, ok := fl.graphTopK(q, f, minScore, k, x.hnsw.Params.EfSearch); ok {
			x.stats.graph.Add(1)
			return out, n
		}
		x.stats.fallback.Add(1)
	} else {
		x.stats.exact.Add(1)
	}
	return fl.exact(q, f, minScore, k)
}

// exact scores every vector of the space.
func (fl *flat) exact(q []float32, f *Filter, minScore float32, k int) ([]Match, int) {
	h := make(minHeap, 0, k)
	n := 0
	for i := range fl.metas {
		m := &fl.metas[i]
		if !f.match(m) {
			continue
		}
		s := Dot(q, fl.data[i*fl.dim:(i+1)*fl.dim])
		if s < minScore {
			continue
		}
		n++
		c := Match{m.Key, m.VersionID, s}
		if len(h) < k {
			heap.Push(&h, c)
		} else if worse(h[0], c) {
			h[0] = c
			heap.Fix(&h, 0)
		}
	}
	out := make([]Match, len(h))
	for i := len(h) - 1; i >= 0; i-- {
		out[i] = heap.Pop(&h).(Match)
	}
	return out, n
}

// minHeap keeps the k best candidates with the worst on top; ties keep the
// smaller key, so that results are deterministic.
type minHeap []Match

func (h minHeap) Len() int           { return len(h) }
func (h minHeap) Less(i, j int) bool { return worse(h[i], h[j]) }

func worse(a, b Match) bool {
	if a.Score != b.Score {
		return a.Score < b.Score
	}
	return a.Key > b.Key
}
func (h minHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *minHeap) Push(v any)   { *h = append(*h, v.(Match)) }
func (h *minHeap) Pop() (v any) { old := *h; v = old[len(old)-1]; *h = old[:len(old)-1]; return v }
