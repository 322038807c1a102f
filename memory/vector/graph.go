package vector

import (
	"slices"
	"sync/atomic"
)

// Slot states of a space that has an HNSW graph (or one being built).
const (
	// stQueued: the slot is in the queue of writes not yet in the graph.
	stQueued = 1 << iota
	// stHeld: the graph, or the snapshot a new graph is built from, holds
	// the slot: its vector never changes (a new vector for its key takes
	// another slot) and, freed, it stays a tombstone until the next build.
	stHeld
)

// graphState is what a space's HNSW graph adds to its flat vectors. Every
// field is guarded by Index.mu, and so is the graph itself: searches read
// it under the read lock, the worker inserts under the write lock, one
// node at a time, and builds a new graph without the lock from a snapshot
// of held slots.
//
// Every live slot is in the graph or in the queue (which searches scan
// exactly), so a write is found at once, before the worker has linked it.
type graphState struct {
	g        *hnsw   // nil: exact search only
	st       []uint8 // by slot
	queue    []int   // slots written since the graph was built (some freed since)
	dead     []int   // tombstones: freed slots a graph still holds
	building bool    // a new graph is being built
	working  bool    // a worker runs for this space
}

// Tombstones in more than 1/rebuildFraction of a graph's nodes make the
// worker build a new graph (or drop it when the space fell below the
// threshold).
const rebuildFraction = 4

// searchBudget caps the nodes one graph search visits, in multiples of
// ef: a filter that few nodes pass makes the walk cover much of the graph
// before it finds ef of them, and the exact scan is then cheaper.
const searchBudget = 64

func (f *flat) held(i int) bool { return f.st[i]&stHeld != 0 }

// added queues slot i, just written, for the graph.
func (f *flat) added(i int) {
	if (f.g != nil || f.building) && f.st[i]&stQueued == 0 {
		f.st[i] |= stQueued
		f.queue = append(f.queue, i)
	}
}

type graphJob int

const (
	noJob graphJob = iota
	buildJob
	insertJob
	dropJob
)

// job is the worker's next task for f. The caller holds mu.
func (x *Index) job(f *flat) graphJob {
	t := x.hnsw.Threshold
	switch {
	case t <= 0 || f.exactOnly || f.building || x.closed.Load():
		return noJob
	case f.g == nil:
		if len(f.slot) >= t {
			return buildJob
		}
		return noJob
	case len(f.dead)*rebuildFraction > f.g.n:
		if len(f.slot) < t {
			return dropJob
		}
		return buildJob
	case len(f.queue)*2 > f.g.n:
		// A bulk load (the rebuild at start): building anew without the
		// lock beats inserting one by one under it.
		return buildJob
	case len(f.queue) > 0:
		return insertJob
	}
	return noJob
}

// schedule starts f's worker if it has work. The caller holds mu.
func (x *Index) schedule(f *flat) {
	if !f.working && x.job(f) != noJob {
		f.working = true
		x.workers++
		go x.work(f)
	}
}

// work runs f's graph jobs until none is left.
func (x *Index) work(f *flat) {
	x.mu.Lock()
	defer func() {
		f.working = false
		x.workers--
		x.idle.Broadcast()
		x.mu.Unlock()
	}()
	for {
		switch x.job(f) {
		case buildJob:
			x.mu.Unlock()
			x.builds <- struct{}{} // at most half the CPUs build graphs (see build)
			x.mu.Lock()
			if x.job(f) == buildJob {
				x.build(f)
			}
			<-x.builds
		case insertJob:
			f.insertNext()
			x.mu.Unlock() // let searches and writes in between inserts
			x.mu.Lock()
		case dropJob:
			f.dropGraph()
		default:
			return
		}
	}
}

// build builds a new graph over the space's live slots without holding mu
// (the caller holds it; it is released meanwhile), then puts it in place
// of the old one, which served searches until then.
func (x *Index) build(f *flat) {
	slots := make([]int, 0, len(f.slot))
	for _, i := range f.slot {
		slots = append(slots, i)
	}
	slices.Sort(slots)
	for _, i := range slots {
		f.st[i] |= stHeld
	}
	data, dead, queued := f.data, len(f.dead), len(f.queue)
	f.building = true
	x.mu.Unlock()

	g := newHNSW(f.dim, x.hnsw.Params, uint64(len(slots)))
	g.data = data // held slots do not change; later appends go to a new array
	ids := make([]uint32, len(slots))
	for n, i := range slots {
		ids[n] = uint32(i)
	}
	// The caller holds one of x.builds' tokens; the build takes more
	// while they are free (see insertMany).
	g.insertMany(ids, x.builds, x.closed.Load)

	x.mu.Lock()
	f.building = false
	if x.closed.Load() {
		return // the snapshot's slots stay held: harmless for exact search
	}
	f.g = g
	// Tombstones of before the snapshot are in no graph now.
	for _, i := range f.dead[:dead] {
		f.st[i] &^= stHeld
		clear(f.vec(i))
		f.free = append(f.free, i)
	}
	f.dead = slices.Clone(f.dead[dead:])
	// Writes queued before the snapshot are in the new graph, except a
	// slot freed before it and reused since.
	q := slices.Clone(f.queue[queued:])
	for _, i := range f.queue[:queued] {
		f.st[i] &^= stQueued
		if f.metas[i].Key != "" && !g.has(i) {
			f.st[i] |= stQueued
			q = append(q, i)
		}
	}
	f.queue = q
}

// insertNext links the oldest queued slot into the graph. The caller holds
// mu for writing.
func (f *flat) insertNext() {
	i := f.queue[0]
	f.queue = f.queue[1:]
	f.st[i] &^= stQueued
	if f.metas[i].Key == "" || f.g.has(i) {
		return
	}
	f.st[i] |= stHeld
	f.g.data = f.data
	f.g.insert(uint32(i))
}

// dropGraph returns the space to exact search only.
func (f *flat) dropGraph() {
	for _, i := range f.dead {
		clear(f.vec(i))
		f.free = append(f.free, i)
	}
	clear(f.st)
	f.g, f.dead, f.queue = nil, nil, nil
}

// graphTopK is TopK through the graph: up to k accepted vectors, and how
// many passed in all (-1: not counted), ok false when the graph found
// fewer than k and cannot tell that there are no more (the caller then
// scans exactly). The graph search keeps only vectors that pass f, so a
// filter makes it walk further; minScore is applied to its ef results,
// which hold every vector scoring at least minScore when the last of them
// scores below it. The queue, not yet in the graph, is scanned exactly.
func (fl *flat) graphTopK(q []float32, f *Filter, minScore float32, k, efSearch int) ([]Match, int, bool) {
	ef := max(efSearch, k)
	cs := fl.g.search(q, ef, func(id uint32) bool { return f.match(&fl.metas[id]) }, searchBudget*ef)
	crossed := len(cs) == ef && cs[ef-1].sim < minScore
	out := make([]Match, 0, len(cs))
	for _, c := range cs {
		if c.sim >= minScore {
			m := &fl.metas[c.id]
			out = append(out, Match{m.Key, m.VersionID, c.sim})
		}
	}
	for _, i := range fl.queue {
		m := &fl.metas[i]
		if fl.g.has(i) || !f.match(m) {
			continue
		}
		if s := Dot(q, fl.vec(i)); s >= minScore {
			out = append(out, Match{m.Key, m.VersionID, s})
		}
	}
	slices.SortFunc(out, func(a, b Match) int {
		switch {
		case worse(b, a):
			return -1
		case worse(a, b):
			return 1
		}
		return 0
	})
	switch {
	case len(out) >= k:
		return out[:k], -1, true
	case crossed:
		return out, len(out), true
	}
	return nil, 0, false
}

// vectorCounters count searches by the path they took.
type vectorCounters struct {
	graph, fallback, exact atomic.Int64
}

// Stats counts vector searches since start: answered by a graph,
// tried in a graph then scanned exactly (too few candidates passed the
// filters), and scanned exactly (no graph).
type Stats struct {
	Graph, Fallback, Exact int64
}

// Stats returns the search counters.
func (x *Index) Stats() Stats {
	return Stats{x.stats.graph.Load(), x.stats.fallback.Load(), x.stats.exact.Load()}
}

// SpaceStats describes one agent's space: its live vectors, the nodes of
// its graph (0: none), tombstones among them and writes not yet linked.
type SpaceStats struct {
	Vectors, GraphNodes, Tombstones, Queued int
	Building                                bool
}

// Space returns the state of the agent's space.
func (x *Index) Space(agent, space string) SpaceStats {
	x.mu.RLock()
	defer x.mu.RUnlock()
	f := x.spaceOf(agent, space, 0, "", false)
	if f == nil {
		return SpaceStats{}
	}
	s := SpaceStats{Vectors: len(f.slot), Tombstones: len(f.dead), Building: f.building}
	if f.g != nil {
		s.GraphNodes = f.g.n
	}
	for _, i := range f.queue {
		if f.metas[i].Key != "" && (f.g == nil || !f.g.has(i)) {
			s.Queued++
		}
	}
	return s
}

// Settle waits until no graph is being built or updated.
func (x *Index) Settle() {
	x.mu.Lock()
	for x.workers > 0 {
		x.idle.Wait()
	}
	x.mu.Unlock()
}

// Close stops the graph workers (a build in progress is abandoned) and
// waits for them; search goes on working.
func (x *Index) Close() {
	x.closed.Store(true)
	x.Settle()
}
