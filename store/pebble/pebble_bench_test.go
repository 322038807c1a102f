package pebble_test

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"sync/atomic"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store/pebble"
	pebblev2 "github.com/cockroachdb/pebble/v2"
)

// parallelism * GOMAXPROCS goroutines write at once, like concurrent
// requests of a server, so that synced commits can be grouped.
const parallelism = 8

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

func keyHash(i int) []byte {
	h := sha256.Sum256(binary.BigEndian.AppendUint64(nil, uint64(i)))
	return h[:]
}

// newDevs creates n developers with one agent and a large balance each.
func newDevs(b *testing.B, db *pebble.DB, n int) []*cairn.Agent {
	b.Helper()
	agents := make([]*cairn.Agent, n)
	for i := range agents {
		dev := &cairn.Developer{ID: cairn.NewID()}
		agents[i] = &cairn.Agent{ID: cairn.NewID(), KeyHash: keyHash(i)}
		g := &cairn.LedgerEntry{Kind: cairn.LedgerGrant, Operation: "starter", Amount: 1 << 40}
		if err := db.CreateAccount(context.Background(), dev, agents[i], g); err != nil {
			b.Fatal(err)
		}
	}
	return agents
}

func benchApply(b *testing.B, inMemory, sameDev bool) {
	db := openBench(b, inMemory)
	agents := newDevs(b, db, 256)
	var next atomic.Int64
	b.SetParallelism(parallelism)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		a := agents[0]
		if !sameDev {
			a = agents[next.Add(1)%int64(len(agents))]
		}
		for pb.Next() {
			e := &cairn.LedgerEntry{DeveloperID: a.DeveloperID, AgentID: a.ID,
				Kind: cairn.LedgerCharge, Operation: "memory.write", Amount: -5}
			if err := db.Apply(context.Background(), e); err != nil {
				b.Fatal(err)
			}
		}
	})
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
	newDevs(b, db, n)
	if err := db.Pebble().Flush(); err != nil { // read from sstables, not the memtable
		b.Fatal(err)
	}
	var next atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := db.AgentByKeyHash(context.Background(), keyHash(int(next.Add(1)%n))); err != nil {
				b.Fatal(err)
			}
		}
	})
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
		b.SetParallelism(parallelism)
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
			if err := p.Set(keyHash(i), val, pebblev2.NoSync); err != nil {
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
				_, closer, err := p.Get(keyHash(int(next.Add(1) % n)))
				if err != nil {
					b.Fatal(err)
				}
				closer.Close()
			}
		})
	})
}
