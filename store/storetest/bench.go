package storetest

import (
	"context"
	"fmt"
	"sort"
	"sync"
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
			n.Add(1)
			go func() {
				defer n.Done()
				local := make([]time.Duration, 0, per)
				for i := 0; i < per; i++ {
					t0 := time.Now()
					op(w*per + i)
					local = append(local, time.Since(t0))
				}
				mu.Lock()
				lat = append(lat, local...)
				mu.Unlock()
			}()
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
