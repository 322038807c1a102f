package fs

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

// Group commit. A Put writes its sidecar to a temp file and fsyncs it
// (Puts do this concurrently, and the file system merges their syncs into
// its journal commits), then hands it to the committer, which commits the
// pending Puts in batches: the Puts that arrive while one batch commits
// form the next. For each batch it
//
//  1. takes the stripe locks of the batch (in ascending order), and
//     renames each sidecar temp file over its sidecar, in arrival order:
//     the commit of that Put;
//  2. fsyncs each directory holding a renamed sidecar once, concurrently,
//     however many Puts renamed into it;
//  3. removes the content files the new sidecars replaced, releases the
//     locks and wakes every Put of the batch.
//
// The next batch may rename while earlier ones (at most maxInflight) sync
// their directories: it waits only for the stripe locks they hold, so two
// Puts of one name still commit in arrival order.
//
// Every file and directory entry a sidecar holds or names is durable before
// its rename, so a crash anywhere leaves each name with its previous
// sidecar and content, or with the new ones, complete. Step 2 completes
// before any Put returns and before any old content file goes, and readers
// (which take the stripe locks shared) see a new sidecar only once it is
// durable. What a crash strands (files no sidecar names, temp files) is
// never read and is removed by New and DeleteExpired.

// maxBatch bounds the Puts committed together.
const maxBatch = 256

// maxInflight bounds the batches that sync their directories at once.
const maxInflight = 4

// maxSyncs bounds the directory fsyncs a batch runs at once.
const maxSyncs = 64

// pending is one Put waiting for its commit.
type pending struct {
	l       loc
	tmpPath string // sidecar temp file, synced
	done    chan struct{}
	name    string
	replace bool // PutOptions.Replace

	// Set by the committer before done is closed.
	err     error
	renamed bool   // the sidecar temp file replaced the sidecar
	old     string // generation of the content file the new sidecar replaced
	halted  bool   // stopped by Store.crash: its files stay as they are
}

// committer queues pending Puts; a goroutine commits them while the queue
// is not empty and exits when it is, so an idle store runs no goroutine.
type committer struct {
	mu      sync.Mutex
	queue   []*pending
	running bool
	slots   chan struct{} // one per batch between its renames and its wake-up
}

// commit queues p and waits until the committer is done with it.
func (s *Store) commit(p *pending) {
	c := &s.gc
	c.mu.Lock()
	c.queue = append(c.queue, p)
	if !c.running {
		c.running = true
		go s.commitLoop()
	}
	c.mu.Unlock()
	<-p.done
}

func (s *Store) commitLoop() {
	c := &s.gc
	for {
		c.mu.Lock()
		batch := c.queue
		if len(batch) > maxBatch {
			batch, c.queue = batch[:maxBatch:maxBatch], batch[maxBatch:]
		} else {
			c.queue = nil
		}
		if len(batch) == 0 {
			c.running = false
			c.mu.Unlock()
			return
		}
		c.mu.Unlock()
		c.slots <- struct{}{}
		finish := s.renameBatch(batch)
		go func() {
			finish()
			<-c.slots
		}()
	}
}

// errHalted is what a Put stopped by Store.crash returns.
var errHalted = errors.New("fs: commit halted")

// halt reports whether Store.crash stops the batch at this point, and if so
// marks its Puts.
func (s *Store) halt(batch []*pending) bool {
	if s.crash == nil || !s.crash() {
		return false
	}
	for _, p := range batch {
		p.halted = true
		if p.err == nil {
			p.err = errHalted
		}
	}
	return true
}

// admit decides whether p may take its name, given the record that holds
// it now (err: none, or damaged). A Put that creates refuses a name held by
// a blob that has not expired, or by a damaged sidecar (the bytes stay for
// the operator); one with Replace takes any name.
func (p *pending) admit(old *record, err error, now time.Time) error {
	switch {
	case p.replace || cairn.IsCode(err, cairn.ENOTFOUND):
		return nil
	case err != nil:
		return fmt.Errorf("%w: %w", cairn.Errorf(cairn.ECONFLICT, "a blob named %q exists", p.name), err)
	case !blob.Expired(old.ExpiresAt, now):
		return cairn.Errorf(cairn.ECONFLICT, "a blob named %q exists", p.name)
	}
	return nil
}

// renameBatch runs step 1 for batch and returns the rest (steps 2 and 3,
// then the wake-up), which may overlap with the renames of the next batch.
func (s *Store) renameBatch(batch []*pending) (finish func()) {
	var stripes []int
	for _, p := range batch {
		if !slices.Contains(stripes, p.l.stripe) {
			stripes = append(stripes, p.l.stripe)
		}
	}
	slices.Sort(stripes)
	for _, i := range stripes {
		s.locks[i].Lock()
	}
	done := func() {
		for _, i := range stripes {
			s.locks[i].Unlock()
		}
		for _, p := range batch {
			close(p.done)
		}
	}

	// 1. Renames.
	dirs := map[string][]*pending{}
	var order []string
	for _, p := range batch {
		if s.halt(batch) {
			return done
		}
		old, err := readRecord(p.l)
		if err := p.admit(old, err, s.clock.Now()); err != nil {
			p.err = err
			continue
		}
		if err == nil && !old.isInline() {
			p.old = old.Gen // absent, inline or damaged: no content file to remove
		}
		s.forget(p.l.key)
		if err := os.Rename(p.tmpPath, p.l.metaPath()); err != nil {
			p.err = cairn.Upstream(err, "writing blob metadata failed")
			continue
		}
		p.renamed = true
		if _, ok := dirs[p.l.dir]; !ok {
			order = append(order, p.l.dir)
		}
		dirs[p.l.dir] = append(dirs[p.l.dir], p)
	}
	if s.halt(batch) {
		return done
	}
	return func() {
		defer done()
		// 2. Directory syncs.
		var mu sync.Mutex
		runAll(len(order), func(i int) {
			if err := syncDir(order[i]); err != nil {
				mu.Lock()
				for _, p := range dirs[order[i]] {
					p.err = cairn.Upstream(err, "writing blob metadata failed")
				}
				mu.Unlock()
			}
		})
		if s.halt(batch) {
			return
		}
		// 3. Content files the new sidecars replaced; a failure leaves an
		// orphan for the sweep.
		for _, p := range batch {
			if p.renamed && p.err == nil && p.old != "" {
				os.Remove(p.l.blobPath(p.old))
			}
		}
	}
}

// runAll runs f(0) ... f(n-1) concurrently, at most maxSyncs at a time,
// and returns when all are done.
func runAll(n int, f func(int)) {
	if n <= 1 {
		if n == 1 {
			f(0)
		}
		return
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, maxSyncs)
	for i := range n {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			f(i)
		})
	}
	wg.Wait()
}
