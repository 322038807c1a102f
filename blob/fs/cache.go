package fs

import (
	"container/list"
	"sync"
)

// DefaultCacheBytes is the memory the read cache may hold by default.
const DefaultCacheBytes = 64 << 20

// cache keeps, in memory and bounded in bytes, the decoded sidecars of
// recently read blobs and the verified bytes of chunks read at random, so
// that a small read of a hot blob neither parses its sidecar nor hashes a
// whole chunk again. Least recently used entries go first.
//
// Sidecars: an entry is put by a reader holding its name's stripe lock
// shared, right after reading the file, and dropped by every change of the
// sidecar (commit, Delete, ExtendExpiry, sweep), which holds that lock
// exclusively: a reader never sees a record older than the file. Expiry is
// still checked on every read. Chunks are keyed by the blob's generation,
// which no later blob of the name reuses, so they never go stale; they are
// the bytes that matched their digest when read, so serving them again is
// serving verified content, whatever happens to the file meanwhile.
//
// Only one process may write a store's root (as the stripe locks and the
// group commit already assume).
type cache struct {
	mu   sync.Mutex
	max  int64
	size int64
	ll   *list.List // front: most recently used
	m    map[cacheKey]*list.Element
}

// cacheKey names a sidecar (gen "", chunk -1) or chunk chunk of generation
// gen of the blob stored under key.
type cacheKey struct {
	key   string
	gen   string
	chunk int64
}

type cacheEntry struct {
	k    cacheKey
	rec  *record
	buf  []byte
	size int64
}

func newCache(max int64) *cache {
	if max <= 0 {
		return nil
	}
	return &cache{max: max, ll: list.New(), m: map[cacheKey]*list.Element{}}
}

func recordKey(key string) cacheKey { return cacheKey{key: key, chunk: -1} }

// record returns the cached sidecar of key, or nil.
func (c *cache) record(key string) *record {
	if e := c.get(recordKey(key)); e != nil {
		return e.rec
	}
	return nil
}

// putRecord caches the sidecar of key (the caller holds its stripe lock).
func (c *cache) putRecord(key string, r *record) {
	c.put(&cacheEntry{k: recordKey(key), rec: r,
		size: int64(len(r.sums)+len(r.Chunks)+len(r.inline)+len(r.Name)) + 256})
}

// dropRecord forgets the sidecar of key (the caller holds its stripe lock
// exclusively and has changed or removed the file).
func (c *cache) dropRecord(key string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.m[recordKey(key)]; ok {
		c.remove(el)
	}
}

// chunk returns the verified bytes of a chunk, or nil. They must not be
// modified.
func (c *cache) chunk(key, gen string, ci int64) []byte {
	if e := c.get(cacheKey{key, gen, ci}); e != nil {
		return e.buf
	}
	return nil
}

// putChunk caches a copy of a verified chunk.
func (c *cache) putChunk(key, gen string, ci int64, b []byte) {
	if c == nil || int64(len(b)) > c.max/8 {
		return
	}
	c.put(&cacheEntry{k: cacheKey{key, gen, ci}, buf: append([]byte(nil), b...), size: int64(len(b)) + 128})
}

func (c *cache) get(k cacheKey) *cacheEntry {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.m[k]
	if !ok {
		return nil
	}
	c.ll.MoveToFront(el)
	return el.Value.(*cacheEntry)
}

func (c *cache) put(e *cacheEntry) {
	if c == nil || e.size > c.max/8 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.m[e.k]; ok {
		c.remove(el)
	}
	c.m[e.k] = c.ll.PushFront(e)
	c.size += e.size
	for c.size > c.max {
		c.remove(c.ll.Back())
	}
}

func (c *cache) remove(el *list.Element) {
	e := el.Value.(*cacheEntry)
	c.ll.Remove(el)
	delete(c.m, e.k)
	c.size -= e.size
}
