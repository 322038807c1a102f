package pebble_test

import (
	"encoding/binary"
	"sync/atomic"
	"testing"

	"github.com/cairn-dev/cairn/store/pebble"
	"github.com/cairn-dev/cairn/store/storetest"
	pebblev2 "github.com/cockroachdb/pebble/v2"
)

// openBench opens an on-disk store (synced commits hit the disk) or an
// in-memory one.
func openBench(b *testing.B, inMemory bool) *pebble.DB {
	b.Helper()
	db, err := pebble.Open(b.TempDir(), pebble.Options{InMemory: inMemory})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

func benchApply(b *testing.B, inMemory, sameDev bool) {
	db := openBench(b, inMemory)
	storetest.BenchApply(b, db, storetest.BenchAccounts(b, db, 256), sameDev)
}

// BenchmarkApply measures ledger charges from parallel goroutines, each on
// its own developer (DistinctDevs) or all on one (SameDev).
func BenchmarkApply(b *testing.B) {
	for _, c := range []struct {
		name              string
		inMemory, sameDev bool
	}{
		{"Disk/DistinctDevs", false, false},
		{"Disk/SameDev", false, true},
		{"Mem/DistinctDevs", true, false},
		{"Mem/SameDev", true, true},
	} {
		b.Run(c.name, func(b *testing.B) { benchApply(b, c.inMemory, c.sameDev) })
	}
}

// BenchmarkAgentByKeyHash measures the authentication lookup of every
// request (two point reads) over 10,000 agents.
func BenchmarkAgentByKeyHash(b *testing.B) {
	db := openBench(b, false)
	const n = 10000
	storetest.BenchAccounts(b, db, n)
	if err := db.Pebble().Flush(); err != nil { // read from sstables, not the memtable
		b.Fatal(err)
	}
	storetest.BenchAgentByKeyHash(b, db, n)
}

// BenchmarkRawPebble is the reference for the figures above: one synced
// Set of a 200-byte value per operation (Apply writes three keys) and one
// point Get (AgentByKeyHash does two and decodes JSON), on the same DB
// options.
func BenchmarkRawPebble(b *testing.B) {
	val := make([]byte, 200)
	b.Run("SyncSet", func(b *testing.B) {
		p := openBench(b, false).Pebble()
		var next atomic.Int64
		b.SetParallelism(storetest.BenchParallelism)
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				k := binary.BigEndian.AppendUint64([]byte("bench/"), uint64(next.Add(1)))
				if err := p.Set(k, val, pebblev2.Sync); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
	b.Run("Get", func(b *testing.B) {
		p := openBench(b, false).Pebble()
		const n = 10000
		for i := 0; i < n; i++ {
			if err := p.Set(storetest.BenchKeyHash(i), val, pebblev2.NoSync); err != nil {
				b.Fatal(err)
			}
		}
		if err := p.Flush(); err != nil {
			b.Fatal(err)
		}
		var next atomic.Int64
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				_, closer, err := p.Get(storetest.BenchKeyHash(int(next.Add(1) % n)))
				if err != nil {
					b.Fatal(err)
				}
				closer.Close()
			}
		})
	})
}

// BenchmarkVersionChanges measures pages of the changes of a version that
// changed 1,000 entries, over a list of a million
// (storetest.BenchVersionChanges).
func BenchmarkVersionChanges(b *testing.B) {
	storetest.BenchVersionChanges(b, openBench(b, false), 1_000_000)
}
