package vector

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// graphSpace fills agent a's space s of a new index (graph above
// threshold) with n clustered vectors of dim dimensions: key kNNNNN, type
// episodic for every 100th key (else semantic), tag "even" on even keys.
func graphSpace(t *testing.T, threshold, n, dim int) (*Index, map[string][]float32) {
	t.Helper()
	x := New(Config{Threshold: threshold})
	t.Cleanup(x.Close)
	r := rand.New(rand.NewPCG(3, uint64(n)))
	data := clusteredUnit(r, n, dim, 30, 0.6)
	vecs := map[string][]float32{}
	for i := range n {
		k := fmt.Sprintf("k%05d", i)
		vecs[k] = data[i*dim : (i+1)*dim]
		x.Set("a", "s", "m", testMeta(k, i), vecs[k])
	}
	return x, vecs
}

func testMeta(k string, i int) Meta {
	m := Meta{Key: k, VersionID: "v-" + k, Type: "semantic", Visibility: "private"}
	if i%100 == 0 {
		m.Type = "episodic"
	}
	if i%2 == 0 {
		m.Tags = []string{"even"}
	}
	return m
}

// exactTopK is the exact scan of the space, whatever graph it has.
func exactTopK(x *Index, q []float32, f *Filter, minScore float32, k int) ([]Match, int) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.agents["a"]["s"].exact(q, f, minScore, k)
}

func keysOf(ss []Match) []string {
	var ks []string
	for _, s := range ss {
		ks = append(ks, s.Key)
	}
	return ks
}

// checkGraphState checks the invariants of a space's graph bookkeeping:
// the queue has no duplicate and matches the queued marks, every live slot
// is in the graph or the queue, held slots are the graph's nodes, freed
// slots are tombstones (in the graph) or free (in none).
func checkGraphState(t *testing.T, x *Index) {
	t.Helper()
	x.mu.RLock()
	defer x.mu.RUnlock()
	f := x.agents["a"]["s"]
	queued := map[int]bool{}
	for _, i := range f.queue {
		if queued[i] {
			t.Fatalf("slot %d queued twice", i)
		}
		queued[i] = true
	}
	for i := range f.metas {
		if q := f.st[i]&stQueued != 0; q != queued[i] {
			t.Fatalf("slot %d: queued mark %v, in queue %v", i, q, queued[i])
		}
		live := f.metas[i].Key != ""
		if f.g == nil {
			if f.held(i) {
				t.Fatalf("slot %d held without a graph", i)
			}
			continue
		}
		if f.held(i) != f.g.has(i) {
			t.Fatalf("slot %d: held %v, in graph %v", i, f.held(i), f.g.has(i))
		}
		if live && !f.g.has(i) && !queued[i] {
			t.Fatalf("live slot %d neither in the graph nor queued", i)
		}
	}
	for _, i := range f.dead {
		if f.metas[i].Key != "" || !f.g.has(i) {
			t.Fatalf("tombstone %d is live or not in the graph", i)
		}
	}
	for _, i := range f.free {
		if f.metas[i].Key != "" || f.held(i) {
			t.Fatalf("free slot %d is live or held", i)
		}
	}
	if f.g != nil && f.g.n != len(f.slot)+len(f.dead)-countQueued(f) {
		t.Fatalf("graph has %d nodes, %d live + %d tombstones - %d queued", f.g.n, len(f.slot), len(f.dead), countQueued(f))
	}
}

func countQueued(f *flat) int {
	n := 0
	for _, i := range f.queue {
		if f.metas[i].Key != "" && !f.g.has(i) {
			n++
		}
	}
	return n
}

// TestVectorsGraphSearch builds a graph above the threshold and compares
// searches through it with the exact scan: recall@10 of plain queries,
// identical results for a filter few vectors pass (the exact fallback)
// and for a minScore the graph's results cross.
func TestVectorsGraphSearch(t *testing.T) {
	const n, dim = 3000, 32
	x, vecs := graphSpace(t, 1000, n, dim)
	x.Settle()
	if s := x.Space("a", "s"); s.GraphNodes != n || s.Vectors != n || s.Queued != 0 {
		t.Fatalf("space %+v", s)
	}
	checkGraphState(t, x)
	r := rand.New(rand.NewPCG(9, 9))
	qs := clusteredUnit(r, 100, dim, 30, 0.6)
	all := &Filter{}
	before := x.Stats()
	total := 0.0
	for i := range 100 {
		q := qs[i*dim : (i+1)*dim]
		got, cnt := x.TopK("a", "s", q, all, -1, 10)
		want, _ := exactTopK(x, q, all, -1, 10)
		if len(got) != 10 || cnt != -1 {
			t.Fatalf("graph answer: %d results, count %d", len(got), cnt)
		}
		for j := 1; j < len(got); j++ {
			if worse(got[j-1], got[j]) {
				t.Fatalf("not best first: %v", got)
			}
		}
		hit := 0
		for _, g := range got {
			if slices.ContainsFunc(want, func(w Match) bool { return w.Key == g.Key }) {
				hit++
			}
			if g.VersionID != "v-"+g.Key || g.Score != Dot(q, vecs[g.Key]) {
				t.Fatalf("hit %+v", g)
			}
		}
		total += float64(hit) / 10
	}
	if rc := total / 100; rc < 0.95 {
		t.Fatalf("recall@10 %.3f", rc)
	}
	if s := x.Stats(); s.Graph-before.Graph != 100 || s.Fallback != before.Fallback {
		t.Fatalf("stats %+v", s)
	}

	t.Run("SelectiveFilterFallsBack", func(t *testing.T) {
		// 30 of 3000 are episodic: fewer than the 50 asked for.
		f := &Filter{Type: "episodic"}
		before := x.Stats()
		for i := range 20 {
			q := qs[i*dim : (i+1)*dim]
			got, cnt := x.TopK("a", "s", q, f, -1, 50)
			want, wcnt := exactTopK(x, q, f, -1, 50)
			if fmt.Sprint(got) != fmt.Sprint(want) || cnt != wcnt || cnt != 30 {
				t.Fatalf("got %v (%d), exact %v (%d)", got, cnt, want, wcnt)
			}
		}
		if s := x.Stats(); s.Fallback-before.Fallback != 20 {
			t.Fatalf("stats %+v, before %+v", s, before)
		}
	})
	t.Run("BroadFilterInGraph", func(t *testing.T) {
		f := &Filter{Tags: []string{"even"}, KeyPrefix: "k0"}
		before := x.Stats()
		for i := range 20 {
			got, _ := x.TopK("a", "s", qs[i*dim:(i+1)*dim], f, -1, 10)
			if len(got) != 10 {
				t.Fatalf("%d results", len(got))
			}
			for _, g := range got {
				var k int
				fmt.Sscanf(g.Key, "k%d", &k)
				if k%2 != 0 {
					t.Fatalf("filter not applied: %v", got)
				}
			}
		}
		if s := x.Stats(); s.Graph-before.Graph != 20 {
			t.Fatalf("stats %+v, before %+v", s, before)
		}
	})
	t.Run("MinScore", func(t *testing.T) {
		// A vector's own score is 1; its cluster is within the graph's
		// ef results, the rest of the space below minScore.
		q := vecs["k00042"]
		got, cnt := x.TopK("a", "s", q, all, 0.999, 100)
		want, wcnt := exactTopK(x, q, all, 0.999, 100)
		if fmt.Sprint(got) != fmt.Sprint(want) || cnt != wcnt || got[0].Key != "k00042" {
			t.Fatalf("got %v (%d), exact %v (%d)", got, cnt, want, wcnt)
		}
	})
	t.Run("EmptyAndOtherAgent", func(t *testing.T) {
		if got, _ := x.TopK("b", "s", qs[:dim], all, -1, 10); len(got) != 0 {
			t.Fatalf("other agent: %v", got)
		}
		if got, cnt := x.TopK("a", "s", qs[:dim], all, 1.01, 10); len(got) != 0 || cnt != 0 {
			t.Fatalf("minScore above 1: %v %d", got, cnt)
		}
	})
}

// TestVectorsGraphTombstones deletes and updates vectors of a graph: a
// deleted or replaced vector is never returned, even to a query equal to
// it, and when tombstones pass a quarter of the nodes the graph is rebuilt
// without them (their slots then reused); below the threshold the graph
// is dropped.
func TestVectorsGraphTombstones(t *testing.T) {
	const n, dim = 2000, 24
	x, vecs := graphSpace(t, 1000, n, dim)
	x.Settle()
	all := &Filter{}
	// Delete 400 of 2000 (20%: no rebuild yet) and move 50 more to new vectors.
	for i := 0; i < n; i += 5 {
		x.Drop("a", fmt.Sprintf("k%05d", i), nil)
	}
	r := rand.New(rand.NewPCG(5, 5))
	moved := randomUnit(r, 50, dim)
	for j := range 50 {
		k := fmt.Sprintf("k%05d", 5*j+1)
		old := vecs[k]
		vecs[k] = moved[j*dim : (j+1)*dim]
		x.Set("a", "s", "m", testMeta(k, 5*j+1), vecs[k])
		got, _ := x.TopK("a", "s", old, all, -1, 10)
		for _, g := range got {
			if g.Key == k && g.Score != Dot(old, vecs[k]) {
				t.Fatalf("old vector of %s returned: %+v", k, g)
			}
		}
	}
	x.Settle()
	s := x.Space("a", "s")
	if s.Tombstones != 450 || s.GraphNodes != n+50 || s.Vectors != n-400 {
		t.Fatalf("space %+v", s)
	}
	checkGraphState(t, x)
	for i := 0; i < n; i += 5 {
		k := fmt.Sprintf("k%05d", i)
		got, _ := x.TopK("a", "s", vecs[k], all, -1, 10)
		for _, g := range got {
			var j int
			if _, err := fmt.Sscanf(g.Key, "k%d", &j); err != nil || j%5 == 0 {
				t.Fatalf("deleted vector returned for %s: %+v", k, g)
			}
		}
		if len(got) != 10 {
			t.Fatalf("%d results", len(got))
		}
	}
	for j := range 50 {
		k := fmt.Sprintf("k%05d", 5*j+1)
		if got, _ := x.TopK("a", "s", vecs[k], all, -1, 1); len(got) != 1 || got[0].Key != k {
			t.Fatalf("moved %s: %v", k, got)
		}
	}

	// 100 more deletions: 550 tombstones > 2050/4 -> rebuild (the
	// deletions after the snapshot are tombstones of the new graph).
	for i := 2; i < 500; i += 5 {
		x.Drop("a", fmt.Sprintf("k%05d", i), nil)
	}
	x.Settle()
	if s := x.Space("a", "s"); s.GraphNodes-s.Tombstones != n-500 || s.Tombstones*4 > s.GraphNodes || s.Vectors != n-500 {
		t.Fatalf("after rebuild %+v", s)
	}
	checkGraphState(t, x)
	f := x.agents["a"]["s"]
	slots := len(f.metas)
	for j := range 100 {
		k := fmt.Sprintf("new%03d", j)
		x.Set("a", "s", "m", Meta{Key: k, VersionID: k}, moved[(j%50)*dim:(j%50+1)*dim])
	}
	x.Settle()
	if len(f.metas) != slots {
		t.Fatalf("slots %d -> %d: freed tombstones not reused", slots, len(f.metas))
	}
	checkGraphState(t, x)

	// Down to 400 vectors, below the threshold: exact search again.
	for i := range n {
		if i%5 == 1 || i%5 == 3 || i%5 == 4 {
			x.Drop("a", fmt.Sprintf("k%05d", i), nil)
		}
	}
	x.Settle()
	if s := x.Space("a", "s"); s.GraphNodes != 0 || s.Tombstones != 0 || s.Vectors != 400 {
		t.Fatalf("after drop %+v", s)
	}
	checkGraphState(t, x)
	q := vecs["k00502"]
	before := x.Stats()
	got, _ := x.TopK("a", "s", q, all, -1, 10)
	want, _ := exactTopK(x, q, all, -1, 10)
	if fmt.Sprint(got) != fmt.Sprint(want) || got[0].Key != "k00502" || x.Stats().Exact != before.Exact+1 {
		t.Fatalf("exact after drop: %v, want %v", got, want)
	}
}

// TestVectorsGraphConcurrent writes, deletes and searches from several
// goroutines while the worker builds and extends the graph (run with
// -race). Every search sees each vector written before it (its own key
// ranks first for its own vector) and never a deleted one.
func TestVectorsGraphConcurrent(t *testing.T) {
	const dim, writers, per = 16, 4, 400
	x := New(Config{Threshold: 300, Params: Params{M: 8, EfConstruction: 64, EfSearch: 48}})
	defer x.Close()
	r := rand.New(rand.NewPCG(11, 11))
	data := randomUnit(r, writers*per, dim)
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Go(func() {
			for i := range per {
				n := w*per + i
				k := fmt.Sprintf("w%d-%04d", w, i)
				v := data[n*dim : (n+1)*dim]
				x.Set("a", "s", "m", Meta{Key: k, VersionID: k}, v)
				got, _ := x.TopK("a", "s", v, &Filter{}, -1, 3)
				if len(got) == 0 || got[0].Key != k {
					errs <- fmt.Errorf("%s just written: top %v", k, keysOf(got))
					return
				}
				if i%3 == 0 {
					x.Drop("a", k, nil)
					got, _ := x.TopK("a", "s", v, &Filter{}, -1, 3)
					if slices.Contains(keysOf(got), k) {
						errs <- fmt.Errorf("%s deleted, still returned", k)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	x.Settle()
	checkGraphState(t, x)
	if s := x.Space("a", "s"); s.GraphNodes == 0 || s.Queued != 0 || s.Vectors != writers*(per-(per+2)/3) {
		t.Fatalf("space %+v", s)
	}
}

// TestVectorsGraphParallelBuild builds the graphs of two agents' spaces
// at once with three build tokens (the service has half the CPUs; this
// machine may have two), searching meanwhile: both builds finish, share
// the tokens and give every one back, and each graph answers as the exact
// scan does.
func TestVectorsGraphParallelBuild(t *testing.T) {
	const n, dim = 2500, 32
	x := New(Config{Threshold: 1000})
	defer x.Close()
	x.builds = make(chan struct{}, 3)
	r := rand.New(rand.NewPCG(23, 23))
	data := map[string][]float32{"a": clusteredUnit(r, n, dim, 30, 0.6), "b": clusteredUnit(r, n, dim, 30, 0.6)}
	var wg sync.WaitGroup
	for agent, d := range data {
		wg.Go(func() {
			for i := range n {
				k := fmt.Sprintf("k%05d", i)
				x.Set(agent, "s", "m", Meta{Key: k, VersionID: k}, d[i*dim:(i+1)*dim])
				if i%50 == 0 {
					if got, _ := x.TopK(agent, "s", d[i*dim:(i+1)*dim], &Filter{}, -1, 1); len(got) != 1 || got[0].Key != k {
						t.Errorf("%s %s just written: top %v", agent, k, keysOf(got))
					}
				}
			}
		})
	}
	wg.Wait()
	x.Settle()
	if len(x.builds) != 0 {
		t.Fatalf("%d build tokens still taken", len(x.builds))
	}
	checkGraphState(t, x)
	qs := clusteredUnit(r, 100, dim, 30, 0.6)
	for agent, d := range data {
		if s := x.Space(agent, "s"); s.GraphNodes != n || s.Queued != 0 {
			t.Fatalf("%s: space %+v", agent, s)
		}
		total := 0.0
		for i := range 100 {
			q := qs[i*dim : (i+1)*dim]
			got, _ := x.TopK(agent, "s", q, &Filter{}, -1, 10)
			var ids []uint32
			for _, g := range got {
				var id int
				fmt.Sscanf(g.Key, "k%05d", &id)
				ids = append(ids, uint32(id))
			}
			total += recall(ids, exactIDs(d, q, dim, 10, nil))
		}
		if rc := total / 100; rc < 0.95 {
			t.Fatalf("%s: recall@10 %.3f < 0.95", agent, rc)
		}
	}
}

// TestVectorsGraphClose stops a build in progress: the space stays
// searchable exactly and no worker is left.
func TestVectorsGraphClose(t *testing.T) {
	x := New(Config{Threshold: 4000})
	r := rand.New(rand.NewPCG(13, 13))
	data := randomUnit(r, 5000, 64)
	for i := range 5000 {
		k := fmt.Sprintf("k%05d", i)
		x.Set("a", "s", "m", Meta{Key: k, VersionID: k}, data[i*64:(i+1)*64])
	}
	x.Close()
	x.mu.Lock()
	workers := x.workers
	x.mu.Unlock()
	if workers != 0 {
		t.Fatalf("%d workers after Close", workers)
	}
	got, _ := x.TopK("a", "s", data[64:128], &Filter{}, -1, 1)
	if len(got) != 1 || got[0].Key != "k00001" {
		t.Fatalf("after close: %v", got)
	}
}

// TestVectorsHashSpaceExact: hash-v1 never gets a graph, whatever its size.
func TestVectorsHashSpaceExact(t *testing.T) {
	x := New(Config{Threshold: 10})
	defer x.Close()
	for i := range 30 {
		k := fmt.Sprintf("k%02d", i)
		x.Set("a", SpaceHash, SpaceHash, Meta{Key: k, VersionID: k}, HashEmbed(fmt.Sprintf("note number %d about deploys", i)))
		x.Set("a", "s", "m", Meta{Key: k, VersionID: k}, HashEmbed(fmt.Sprintf("note number %d about deploys", i)))
	}
	x.Settle()
	if s := x.Space("a", SpaceHash); s.GraphNodes != 0 || s.Vectors != 30 {
		t.Fatalf("hash-v1 %+v", s)
	}
	if s := x.Space("a", "s"); s.GraphNodes != 30 {
		t.Fatalf("client space %+v", s)
	}
}
