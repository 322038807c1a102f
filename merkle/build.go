package merkle

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"runtime"
	"slices"
	"sync"
)

// Parallel thresholds: below them the goroutine hand-off costs more than it
// saves (see BenchmarkBuild).
const (
	parallelNodes = 1 << 13 // internal nodes of one level per goroutine, at least
	parallelSort  = 1 << 15 // leaves below which one goroutine sorts
	bucketBits    = 16      // counting-sort buckets: the first two bytes
)

// hashInternal fills nodes[0 : n-1] from the leaves in nodes[n-1:]. Node i
// depends only on 2i+1 and 2i+2, one level deeper, so each level is hashed
// in parallel once the level below it is done.
func hashInternal(nodes []Hash, n int) {
	if n < 2 {
		return
	}
	top := n - 2 // last internal node
	for d := bits.Len(uint(top+1)) - 1; d >= 0; d-- {
		lo := 1<<d - 1
		hi := min(1<<(d+1)-2, top)
		forChunks(lo, hi+1, parallelNodes, func(a, b int) {
			k := hasherPool.Get().(*hasher)
			i := b - 1
			for ; i-3 >= a; i -= 4 {
				// Four nodes at once: i-3 .. i, children 2i-5 .. 2i+2.
				l, r := [4]*Hash{}, [4]*Hash{}
				for j := range 4 {
					l[j], r[j] = &nodes[2*(i-3+j)+1], &nodes[2*(i-3+j)+2]
				}
				k.pairs4(&l, &r, (*[4]Hash)(nodes[i-3:i+1]))
			}
			for ; i >= a; i-- {
				nodes[i] = k.pair(&nodes[2*i+1], &nodes[2*i+2])
			}
			hasherPool.Put(k)
		})
	}
}

// forChunks calls f over [lo, hi) split into at most GOMAXPROCS chunks of
// at least minChunk, on separate goroutines when there is more than one.
func forChunks(lo, hi, minChunk int, f func(a, b int)) {
	size := hi - lo
	workers := min(runtime.GOMAXPROCS(0), size/minChunk)
	if workers <= 1 {
		f(lo, hi)
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		a, b := lo+size*w/workers, lo+size*(w+1)/workers
		wg.Go(func() { f(a, b) })
	}
	wg.Wait()
}

// lessLeaf orders leaf positions: by hash, then by value index, which is the
// order a stable sort by hash leaves them in.
func lessLeaf(ha, hb *Hash, ia, ib int32) int {
	if c := bytes.Compare(ha[:], hb[:]); c != 0 {
		return c
	}
	return int(ia) - int(ib)
}

// sortByHash writes leaves into dst in ascending (hash, value index) order
// and the value index of each into ids. Large inputs go through a stable
// counting sort on the first two bytes, then each bucket is sorted on its
// own, in parallel; keccak digests spread evenly over the buckets.
func sortByHash(dst []Hash, ids []int32, leaves []Hash) {
	n := len(leaves)
	if n < parallelSort {
		for i := range ids {
			ids[i] = int32(i)
		}
		slices.SortFunc(ids, func(a, b int32) int { return lessLeaf(&leaves[a], &leaves[b], a, b) })
		for k, v := range ids {
			dst[k] = leaves[v]
		}
		return
	}
	start := bucketStarts(leaves)
	next := slices.Clone(start[:1<<bucketBits])
	for i := range leaves {
		b := binary.BigEndian.Uint16(leaves[i][:2])
		p := next[b]
		next[b]++
		dst[p] = leaves[i]
		ids[p] = int32(i)
	}
	sortBuckets(dst, ids, start)
}

// bucketStarts returns, for each bucket (a two-byte prefix), the position
// of its first leaf once sorted, and the number of leaves at the end.
func bucketStarts(leaves []Hash) []int32 {
	start := make([]int32, 1<<bucketBits+1)
	for i := range leaves {
		start[int(binary.BigEndian.Uint16(leaves[i][:2]))+1]++
	}
	for b := 1; b < len(start); b++ {
		start[b] += start[b-1]
	}
	return start
}

// sortBuckets sorts each bucket of h (given by start) with its ids, in
// parallel.
func sortBuckets(h []Hash, ids []int32, start []int32) {
	forChunks(0, 1<<bucketBits, 1<<10, func(a, b int) {
		var scratch bucketScratch
		for bk := a; bk < b; bk++ {
			lo, hi := int(start[bk]), int(start[bk+1])
			sortBucket(h[lo:hi], ids[lo:hi], &scratch)
		}
	})
}

// bucketScratch is the buffers of sortBucket, reused from one bucket to
// the next: a tree of ten million leaves has some 150 per bucket, and
// buffers of their own would be 440 MB of garbage.
type bucketScratch struct {
	perm []int
	h    []Hash
	ids  []int32
}

// sortBucket sorts one bucket of hashes with their ids: insertion sort for
// the usual handful, a full sort for a crowded bucket.
func sortBucket(h []Hash, ids []int32, s *bucketScratch) {
	if len(h) > 32 {
		s.perm = s.perm[:0]
		for i := range h {
			s.perm = append(s.perm, i)
		}
		slices.SortFunc(s.perm, func(a, b int) int { return lessLeaf(&h[a], &h[b], ids[a], ids[b]) })
		s.h, s.ids = append(s.h[:0], h...), append(s.ids[:0], ids...)
		for k, p := range s.perm {
			h[k], ids[k] = s.h[p], s.ids[p]
		}
		return
	}
	for i := 1; i < len(h); i++ {
		x, xi := h[i], ids[i]
		j := i
		for ; j > 0 && lessLeaf(&h[j-1], &x, ids[j-1], xi) > 0; j-- {
			h[j], ids[j] = h[j-1], ids[j-1]
		}
		h[j], ids[j] = x, xi
	}
}
