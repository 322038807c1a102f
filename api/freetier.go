package api

import (
	"sync"
	"time"
)

// freeTier counts the free screening addresses of each developer in fixed
// one-hour windows that start at the developer's first screening (spec 8:
// the first 10 addresses per hour are free). It is kept in memory: a
// restart gives every developer a fresh window.
type freeTier struct {
	limit  int
	window time.Duration
	mu     sync.Mutex
	used   map[string]*freeWindow
}

type freeWindow struct {
	start time.Time
	used  int
}

func newFreeTier(limit int, window time.Duration) *freeTier {
	return &freeTier{limit: limit, window: window, used: map[string]*freeWindow{}}
}

// take uses up to n free addresses of the developer's current window and
// returns how many were free, how many remain and when the window resets.
func (f *freeTier) take(dev string, n int, now time.Time) (free, remaining int, reset time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	w := f.used[dev]
	if w == nil || !now.Before(w.start.Add(f.window)) {
		w = &freeWindow{start: now}
		f.used[dev] = w
		if len(f.used) > 100_000 { // forget windows that ended
			for k, v := range f.used {
				if !now.Before(v.start.Add(f.window)) {
					delete(f.used, k)
				}
			}
		}
	}
	free = min(n, f.limit-w.used)
	w.used += free
	return free, f.limit - w.used, w.start.Add(f.window)
}

// giveBack returns free addresses of a request that was not served.
func (f *freeTier) giveBack(dev string, n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if w := f.used[dev]; w != nil {
		w.used = max(0, w.used-n)
	}
}
