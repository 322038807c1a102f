package pebble

import "sync"

const nStripes = 1024

// stripe is a mutex padded to a cache line so that neighbours do not share
// one.
type stripe struct {
	sync.Mutex
	_ [64 - 8]byte
}

// stripes is a fixed set of mutexes selected by the hash of a key: two keys
// share a mutex only when their hashes collide (1 in nStripes), and the set
// never grows.
type stripes [nStripes]stripe

// lock locks the stripe of key and returns it for Unlock.
func (db *DB) lock(s *stripes, key string) *stripe {
	m := &s[db.stripeIndex(key)]
	m.Lock()
	return m
}

// Lock order, to rule out deadlock: idx before uniqs before devs; agts
// before idx; agts before idem. No method holds two stripes of the same set.
