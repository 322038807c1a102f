package postgres

import (
	"sync"
	"time"
)

// flushTimer runs its owner's flush once, a delay after it is armed, with
// one run due at a time (charges.go, deferred_charges.go,
// deferred_audit.go). The owner's mutex guards it.
type flushTimer struct{ t *time.Timer }

// arm makes fn due after delay, unless a run is due already.
func (f *flushTimer) arm(delay time.Duration, fn func()) {
	if f.t == nil {
		f.t = time.AfterFunc(delay, fn)
	}
}

// start is the run's first step, under the owner's mutex mu: no run is
// due any more, so the next arm makes one.
func (f *flushTimer) start(mu *sync.Mutex) {
	mu.Lock()
	f.t = nil
	mu.Unlock()
}

// stop cancels the run due, reporting whether one was due and had not
// started.
func (f *flushTimer) stop() bool {
	due := f.t != nil && f.t.Stop()
	f.t = nil
	return due
}

// due reports whether a run is due.
func (f *flushTimer) due() bool { return f.t != nil }
