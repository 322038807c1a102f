package postgres

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/cairn-dev/cairn"
)

// parallelism * GOMAXPROCS goroutines write at once, like concurrent
// requests of a server (the same figure as the pebble benchmarks), each
// with a connection of its own.
const parallelism = 8

func openBench(b *testing.B) *DB {
	b.Helper()
	return openTest(b, Options{MaxConns: int32(parallelism * runtime.GOMAXPROCS(0))})
}

func keyHash(i int) []byte {
	h := sha256.Sum256(binary.BigEndian.AppendUint64(nil, uint64(i)))
	return h[:]
}

// newDevs creates n developers with one agent and a large balance each.
func newDevs(b *testing.B, db *DB, n int) []*cairn.Agent {
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

// BenchmarkApply measures ledger charges from parallel goroutines, each on
// its own developer (DistinctDevs) or all on one (SameDev, where every
// charge waits for the developer's row lock).
func BenchmarkApply(b *testing.B) {
	for _, c := range []struct {
		name    string
		sameDev bool
	}{
		{"DistinctDevs", false},
		{"SameDev", true},
	} {
		b.Run(c.name, func(b *testing.B) {
			db := openBench(b)
			agents := newDevs(b, db, 64)
			var next atomic.Int64
			b.SetParallelism(parallelism)
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				a := agents[0]
				if !c.sameDev {
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
		})
	}
}

// BenchmarkAgentByKeyHash measures the authentication lookup of every
// request (one index scan) over 10,000 agents.
func BenchmarkAgentByKeyHash(b *testing.B) {
	db := openBench(b)
	const n = 10000
	newDevs(b, db, n)
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

// BenchmarkRawInsert is the reference for BenchmarkApply: one autocommit
// INSERT of a row about the size of a ledger entry per operation, on the
// same server and pool, so the difference is what Apply adds (the
// developer row update and its lock).
func BenchmarkRawInsert(b *testing.B) {
	db := openBench(b)
	ctx := context.Background()
	if _, err := db.pool.Exec(ctx, "CREATE TABLE bench_raw (id bigint PRIMARY KEY, v text NOT NULL)"); err != nil {
		b.Fatal(err)
	}
	val := strings.Repeat("x", 200)
	var next atomic.Int64
	b.SetParallelism(parallelism)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := db.pool.Exec(ctx, "INSERT INTO bench_raw (id, v) VALUES ($1, $2)", next.Add(1), val); err != nil {
				b.Fatal(err)
			}
		}
	})
}
