package postgres

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
)

// TestMemoryConcurrentWriters checks the row locks and constraints behind
// the contract across connections: of writers racing for one key exactly
// one creates it (the others are ECONFLICT), of writers racing for the
// next version exactly one writes it (the others are EPRECONDITION), and
// the audit log holds one entry per write that succeeded.
func TestMemoryConcurrentWriters(t *testing.T) {
	ctx := context.Background()
	db := openTest(t, Options{MaxConns: 16})
	t0 := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
	const n = 12
	race := func(write func(i int) error) map[string]int {
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() { defer wg.Done(); errs[i] = write(i) }()
		}
		wg.Wait()
		codes := map[string]int{}
		for _, err := range errs {
			switch {
			case err == nil:
				codes["ok"]++
			case cairn.IsCode(err, cairn.ECONFLICT):
				codes[cairn.ECONFLICT]++
			case cairn.IsCode(err, cairn.EPRECONDITION):
				codes[cairn.EPRECONDITION]++
			default:
				t.Errorf("write: %v", err)
			}
		}
		return codes
	}
	var head *cairn.Memory
	var mu sync.Mutex
	codes := race(func(int) error {
		m := &cairn.Memory{ID: cairn.NewID(), AgentID: "agent-a", Type: "semantic", Key: "shared", Visibility: "private",
			Tags: []string{}, CreatedAt: t0, UpdatedAt: t0}
		err := db.CreateMemoryVersion(ctx, m, &cairn.MemoryVersion{ID: m.ID, Version: 1, CreatedAt: t0},
			&cairn.AuditEntry{AgentID: "agent-a", Action: cairn.AuditWrite}, nil)
		if err == nil {
			mu.Lock()
			head = m
			mu.Unlock()
		}
		return err
	})
	if codes["ok"] != 1 || codes[cairn.ECONFLICT] != n-1 {
		t.Fatalf("racing creates of one key: %v", codes)
	}
	codes = race(func(int) error {
		m := *head
		return db.CreateMemoryVersion(ctx, &m, &cairn.MemoryVersion{ID: cairn.NewID(), Version: 2, CreatedAt: t0},
			&cairn.AuditEntry{AgentID: "agent-a", Action: cairn.AuditWrite}, nil)
	})
	if codes["ok"] != 1 || codes[cairn.EPRECONDITION] != n-1 {
		t.Fatalf("racing second versions: %v", codes)
	}
	got, err := db.MemoryByKey(ctx, "agent-a", "shared")
	if err != nil || got.Latest != 2 || got.Versions != 2 {
		t.Fatalf("head after the races: %+v, %v", got, err)
	}
	log, err := db.ListAudit(ctx, "agent-a", cairn.AuditFilter{}, "", 100)
	if err != nil || len(log) != 2 {
		t.Fatalf("audit log holds %d entries, want 2 (one per write that won): %v", len(log), err)
	}
}
