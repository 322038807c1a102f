package pebble

import (
	"sync/atomic"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// The waits of synced commits and pebble's write stalls are counted for
// the operators (GET /metrics): on a disk whose log syncs queue behind
// the bulk writes of flushes and compactions, they are where a durable
// write's tail latency goes (BENCHMARKS.md, "Where the screening tail
// goes").

// syncWaitBounds are the upper bounds, in seconds, of the buckets of the
// synced commits' waits.
var syncWaitBounds = []float64{0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5}

// syncStats counts the synced commits by their wait, and the write stalls.
type syncStats struct {
	buckets    [14]atomic.Uint64 // per bound of syncWaitBounds, then above the last
	nanos      atomic.Uint64     // the waits in all
	stalls     atomic.Uint64
	stallNanos atomic.Uint64
	stallStart atomic.Int64 // unix nanoseconds of the stall under way, 0: none
}

// observe counts one synced commit that waited d.
func (s *syncStats) observe(d time.Duration) {
	i := 0
	for i < len(syncWaitBounds) && d.Seconds() > syncWaitBounds[i] {
		i++
	}
	s.buckets[i].Add(1)
	s.nanos.Add(uint64(max(d, 0)))
}

// listen counts pebble's write stalls (writes delayed while flushes or
// compactions catch up) in po.
func (s *syncStats) listen(po *pebble.Options) {
	po.AddEventListener(pebble.EventListener{
		WriteStallBegin: func(pebble.WriteStallBeginInfo) {
			s.stalls.Add(1)
			s.stallStart.Store(time.Now().UnixNano())
		},
		WriteStallEnd: func() {
			if t := s.stallStart.Swap(0); t != 0 {
				s.stallNanos.Add(uint64(max(time.Now().UnixNano()-t, 0)))
			}
		},
	})
}

// SyncWaits returns how long synced commits waited, from their commit to
// the log's sync, as a Prometheus histogram counts them: the buckets'
// upper bounds in seconds, the commits that waited at most each bound
// (cumulative), all of them, and their waits in all in seconds.
func (db *DB) SyncWaits() (bounds []float64, cumulative []uint64, count uint64, seconds float64) {
	s := db.syncs
	cumulative = make([]uint64, len(syncWaitBounds))
	for i := range s.buckets {
		count += s.buckets[i].Load()
		if i < len(cumulative) {
			cumulative[i] = count
		}
	}
	return syncWaitBounds, cumulative, count, time.Duration(s.nanos.Load()).Seconds()
}

// WriteStalls returns how many times pebble delayed writes, and for how
// long in all, in seconds.
func (db *DB) WriteStalls() (count uint64, seconds float64) {
	return db.syncs.stalls.Load(), time.Duration(db.syncs.stallNanos.Load()).Seconds()
}
