package main

import (
	"sync"
	"testing"
	"time"
)

// faultOutcome is the answer to one request of a load that a fault of a
// dependency hits.
type faultOutcome struct {
	name, id, code, retryAfter string
	status                     int
	err                        error
}

// faultLoad runs writers until end, recording every answer.
type faultLoad struct {
	mu       sync.Mutex
	outcomes []faultOutcome
	stop     chan struct{}
	wg       sync.WaitGroup
}

// startFaultLoad starts workers that each send requests until end:
// request i of worker w is send(w, i), which names what it writes and
// returns the answer.
func startFaultLoad(workers int, send func(w, i int) (string, *response, error)) *faultLoad {
	l := &faultLoad{stop: make(chan struct{})}
	for w := range workers {
		l.wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-l.stop:
					return
				default:
				}
				name, r, err := send(w, i)
				o := faultOutcome{name: name, err: err}
				if err == nil {
					o.status, o.id, o.code, o.retryAfter = r.Status, r.str("id"), r.str("code"), r.Header.Get("Retry-After")
				}
				l.mu.Lock()
				l.outcomes = append(l.outcomes, o)
				l.mu.Unlock()
				if o.status != 201 {
					time.Sleep(20 * time.Millisecond)
				}
			}
		})
	}
	return l
}

// acked is the number of writes answered 201 so far.
func (l *faultLoad) acked() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, o := range l.outcomes {
		if o.status == 201 {
			n++
		}
	}
	return n
}

// waitAcked waits until n writes were answered 201 (the bound only ends a
// test that hangs).
func (l *faultLoad) waitAcked(t *testing.T, n int, what string) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); l.acked() < n; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d writes acknowledged %s", l.acked(), what)
		}
	}
}

// end stops the workers and checks every answer: 201, or 503 with the
// problem code "unavailable" and Retry-After. It returns the acknowledged
// writes (id to name) and the number that failed cleanly.
func (l *faultLoad) end(t *testing.T) (acked map[string]string, failed int) {
	t.Helper()
	close(l.stop)
	l.wg.Wait()
	acked = map[string]string{}
	for _, o := range l.outcomes {
		switch {
		case o.err != nil:
			t.Errorf("%s: %v", o.name, o.err)
		case o.status == 201:
			acked[o.id] = o.name
		case o.status == 503 && o.code == "unavailable" && o.retryAfter != "":
			failed++
		default:
			t.Errorf("%s: status %d, code %q, Retry-After %q", o.name, o.status, o.code, o.retryAfter)
		}
	}
	return acked, failed
}
