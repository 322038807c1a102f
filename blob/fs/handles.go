package fs

import (
	"container/list"
	"os"
	"sync"
)

// maxOpenHandles bounds the content files kept open between reads.
const maxOpenHandles = 128

// handles keeps the content files of recently read blobs open, so that a
// read of a hot blob (a small Range, say) neither opens, stats nor closes
// its file: readers share one *os.File and read it with ReadAt.
//
// A handle is the content file of one generation of a name, found under the
// name's stripe lock held shared, after the sidecar named that generation.
// Every change of a name's sidecar (commit, Delete, ExtendExpiry, sweep)
// forgets its handle under the lock held exclusively, so that the file of a
// deleted or replaced blob is not kept open by the cache; a reader that
// already holds the handle keeps reading the generation it opened, as with
// a file of its own, and the file is closed when the last of them closes.
// A generation's content file never changes (its chunks are verified on
// every read besides), so a handle can only be stale by being open on a
// removed file, never by serving another blob's bytes.
type handles struct {
	mu sync.Mutex
	ll *list.List               // of *handle, front: most recently used
	m  map[string]*list.Element // by the name's key
}

// handle is an open content file. refs counts the readers holding it, plus
// one while the cache does.
type handle struct {
	key, gen string
	f        *os.File
	refs     int

	// The file's stamp when it was opened (ok: it has one), for a reader
	// that verifies it whole to mark it verified (verify.go).
	st stamp
	ok bool
}

func newHandles() *handles { return &handles{ll: list.New(), m: map[string]*list.Element{}} }

// get returns the open file of generation gen of key, with a reference for
// the caller, or nil.
func (hs *handles) get(key, gen string) *handle {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	el, ok := hs.m[key]
	if !ok {
		return nil
	}
	h := el.Value.(*handle)
	if h.gen != gen {
		return nil
	}
	h.refs++
	hs.ll.MoveToFront(el)
	return h
}

// put caches f as the file of generation gen of key and returns its handle
// with a reference for the caller. Another handle of key goes (a
// concurrent reader of the same generation may have put one first).
func (hs *handles) put(h *handle) *handle {
	key := h.key
	h.refs = 2
	var closing []*os.File
	hs.mu.Lock()
	if el, ok := hs.m[key]; ok {
		closing = hs.remove(el, closing)
	}
	hs.m[key] = hs.ll.PushFront(h)
	for hs.ll.Len() > maxOpenHandles {
		closing = hs.remove(hs.ll.Back(), closing)
	}
	hs.mu.Unlock()
	closeAll(closing)
	return h
}

// forget drops key's handle from the cache (the caller holds the name's
// stripe lock exclusively).
func (hs *handles) forget(key string) {
	var closing []*os.File
	hs.mu.Lock()
	if el, ok := hs.m[key]; ok {
		closing = hs.remove(el, closing)
	}
	hs.mu.Unlock()
	closeAll(closing)
}

// release gives back a reference taken by get or put.
func (hs *handles) release(h *handle) error {
	hs.mu.Lock()
	h.refs--
	last := h.refs == 0
	hs.mu.Unlock()
	if last {
		return h.f.Close()
	}
	return nil
}

// remove takes el out of the cache and drops the cache's reference,
// adding the file to closing when that was the last one. hs.mu is held.
func (hs *handles) remove(el *list.Element, closing []*os.File) []*os.File {
	h := el.Value.(*handle)
	hs.ll.Remove(el)
	delete(hs.m, h.key)
	h.refs--
	if h.refs == 0 {
		closing = append(closing, h.f)
	}
	return closing
}

// closeAll closes files outside the lock.
func closeAll(files []*os.File) {
	for _, f := range files {
		f.Close()
	}
}

// sharedFile is a reader's use of a handle: the content interface.
type sharedFile struct {
	hs *handles
	h  *handle
}

func (s *sharedFile) ReadAt(p []byte, off int64) (int, error) { return s.h.f.ReadAt(p, off) }

// Close gives back the reference; closing twice is harmless.
func (s *sharedFile) Close() error {
	if s.h == nil {
		return nil
	}
	err := s.hs.release(s.h)
	s.h = nil
	return err
}
