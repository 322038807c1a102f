package postgres

import (
	"context"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/cairn-dev/cairn/store/storetest"
)

// openBench opens a store with a connection for each of the
// storetest.BenchParallelism goroutines per CPU that write at once, like
// concurrent requests of a server (the same figure as the pebble
// benchmarks).
func openBench(b *testing.B) *DB {
	b.Helper()
	return openTest(b, Options{MaxConns: int32(storetest.BenchParallelism * runtime.GOMAXPROCS(0))})
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
			storetest.BenchApply(b, db, storetest.BenchAccounts(b, db, 64), c.sameDev)
		})
	}
}

// BenchmarkAgentByKeyHash measures the authentication lookup of every
// request (one index scan) over 10,000 agents.
func BenchmarkAgentByKeyHash(b *testing.B) {
	db := openBench(b)
	const n = 10000
	storetest.BenchAccounts(b, db, n)
	storetest.BenchAgentByKeyHash(b, db, n)
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
	b.SetParallelism(storetest.BenchParallelism)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := db.pool.Exec(ctx, "INSERT INTO bench_raw (id, v) VALUES ($1, $2)", next.Add(1), val); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkVersionChanges measures pages of the changes of a version that
// changed 1,000 entries, over a list of a million
// (storetest.BenchVersionChanges).
func BenchmarkVersionChanges(b *testing.B) {
	storetest.BenchVersionChanges(b, openBench(b), 1_000_000)
}
