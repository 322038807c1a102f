package storetest

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

// reportLatency adds p50 and p99 of the recorded durations to the result.
func reportLatency(b *testing.B, lat []time.Duration) {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	if len(lat) == 0 {
		return
	}
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

// BenchMemory measures a store's memory path without HTTP, the reference
// of the HTTP figures: one memory version written as the service writes it
// (version, head and audit entry in one commit), and one read of a version
// by id, from 16 goroutines. Backends run it from their benchmarks.
func BenchMemory(b *testing.B, db store.Memories) {
	ctx := context.Background()
	var ids []string
	var mu sync.Mutex
	write := func(i int) string {
		now := time.Now()
		m := &cairn.Memory{ID: cairn.NewID(), AgentID: "agent", Type: "semantic", Key: fmt.Sprintf("bench/%d-%d", now.UnixNano(), i),
			Importance: 0.5, Visibility: "private", CreatedAt: now, UpdatedAt: now}
		v := &cairn.MemoryVersion{ID: m.ID, Version: 1, BlobName: "memory/semantic/" + m.Key + "/v1", SizeBytes: 256, CreatedAt: now}
		if err := db.CreateMemoryVersion(ctx, m, v, &cairn.AuditEntry{AgentID: "agent", Action: cairn.AuditWrite, Resource: v.ID}, nil); err != nil {
			b.Fatal(err)
		}
		return v.ID
	}
	run := func(b *testing.B, op func(i int)) {
		var lat []time.Duration
		var n sync.WaitGroup
		b.ResetTimer()
		per := b.N/16 + 1
		for w := 0; w < 16; w++ {
			n.Go(func() {
				local := make([]time.Duration, 0, per)
				for i := 0; i < per; i++ {
					t0 := time.Now()
					op(w*per + i)
					local = append(local, time.Since(t0))
				}
				mu.Lock()
				lat = append(lat, local...)
				mu.Unlock()
			})
		}
		n.Wait()
		b.StopTimer()
		reportLatency(b, lat)
	}
	b.Run("CreateVersion", func(b *testing.B) {
		run(b, func(i int) {
			id := write(i)
			mu.Lock()
			ids = append(ids, id)
			mu.Unlock()
		})
	})
	b.Run("GetByVersionID", func(b *testing.B) {
		for len(ids) < 1000 {
			ids = append(ids, write(len(ids)))
		}
		run(b, func(i int) {
			if _, _, err := db.MemoryByVersionID(ctx, "agent", ids[i%len(ids)]); err != nil {
				b.Fatal(err)
			}
		})
	})
}

// BenchParallelism * GOMAXPROCS goroutines write at once in the backends'
// benchmarks, like concurrent requests of a server, so that synced commits
// can be grouped.
const BenchParallelism = 8

// BenchKeyHash is the API key hash of the i-th agent of BenchAccounts.
func BenchKeyHash(i int) []byte {
	h := sha256.Sum256(binary.BigEndian.AppendUint64(nil, uint64(i)))
	return h[:]
}

// BenchAccounts creates n developers with one agent (key hash
// BenchKeyHash(i)) and a large balance each.
func BenchAccounts(b *testing.B, db store.Accounts, n int) []*cairn.Agent {
	b.Helper()
	agents := make([]*cairn.Agent, n)
	for i := range agents {
		dev := &cairn.Developer{ID: cairn.NewID()}
		agents[i] = &cairn.Agent{ID: cairn.NewID(), KeyHash: BenchKeyHash(i)}
		g := &cairn.LedgerEntry{Kind: cairn.LedgerGrant, Operation: "starter", Amount: 1 << 40}
		if err := db.CreateAccount(context.Background(), dev, agents[i], g); err != nil {
			b.Fatal(err)
		}
	}
	return agents
}

// BenchApply measures ledger charges from BenchParallelism goroutines per
// CPU, each on its own developer of agents or all on the first (sameDev,
// where every charge waits for that developer).
func BenchApply(b *testing.B, db store.Ledger, agents []*cairn.Agent, sameDev bool) {
	var next atomic.Int64
	b.SetParallelism(BenchParallelism)
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

// BenchAgentByKeyHash measures the authentication lookup of every request
// over the n agents of BenchAccounts.
func BenchAgentByKeyHash(b *testing.B, db store.Accounts, n int) {
	var next atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := db.AgentByKeyHash(context.Background(), BenchKeyHash(int(next.Add(1)%int64(n)))); err != nil {
				b.Fatal(err)
			}
		}
	})
}
