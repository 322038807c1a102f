package main

import (
	"context"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/store/postgres"
)

// Leading reports whether this instance is the leader: the one of the
// instances sharing a Postgres store that runs the shared TTL sweeps,
// scheduled ingestion and anchoring. On the embedded store the one
// process always leads.
func (m *Main) Leading() bool { return m.leading.Load() }

// lead runs the leader's work until ctx ends: at once on the embedded
// store; on Postgres, while this instance holds the leader lock, which
// followers try every --leader-interval, so that the work moves to another
// instance within seconds of the leader's end.
func (m *Main) lead(ctx context.Context) {
	if m.pg == nil {
		m.leading.Store(true)
		m.leaderTasks(ctx)
		return
	}
	m.pg.Lead(ctx, m.Config.LeaderInterval, m.Logger, m.leading.Store, m.leaderTasks)
}

// leaderTasks runs the shared sweepers, the ingestion schedule (with the
// start-up ingest when the list was restored at Open, on the first
// leadership only), the anchorer and the oracle, until ctx ends.
func (m *Main) leaderTasks(ctx context.Context) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); m.sweepKind(ctx, false) }()
	if m.anchorer != nil {
		wg.Add(1)
		go func() { defer wg.Done(); m.anchorer.Run(ctx) }()
	}
	if m.oracle != nil {
		wg.Add(1)
		go func() { defer wg.Done(); m.oracle.Run(ctx) }()
	}
	if len(m.pipeline.Sources) > 0 {
		startup := m.listRestored && !m.ledOnce.Load()
		stopCron, err := m.startSchedule(ctx, m.pipeline, startup)
		if err != nil {
			m.Logger.Error("--ingest-schedule", "err", err) // checked at Open: not reached
		} else {
			defer stopCron()
		}
	}
	m.ledOnce.Store(true)
	<-ctx.Done()
	wg.Wait()
}

// followLists installs the list versions other instances sharing the
// Postgres store commit: at once on their notification, and every
// --list-poll-interval in case a notification was missed (the listening
// connection reconnects after a failure).
func (m *Main) followLists(ctx context.Context) {
	kick := make(chan struct{}, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		m.pg.ListenListVersions(ctx, m.Config.LeaderInterval, m.Logger, func(uint64) {
			select {
			case kick <- struct{}{}:
			default: // a sync is already due; it reads the newest version
			}
		})
	}()
	defer func() { <-done }()
	t := time.NewTicker(m.Config.ListPollInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-kick:
		case <-t.C:
		}
		if ok, err := m.pipeline.Sync(ctx); err != nil && ctx.Err() == nil {
			m.Logger.Error("installing the newest stored list version failed", "err", err)
		} else if ok {
			m.Logger.Info("installed the list version another instance stored", "version", m.pipeline.Holder.Current().Version)
		}
	}
}

// followPricing reads the price list from the Postgres store every
// --leader-interval, so that a change an administrator made on another
// instance applies here within seconds (one read of one row).
func (m *Main) followPricing(ctx context.Context) {
	every(ctx, m.Config.LeaderInterval, func() {
		if changed, err := m.server.Pricing.Reload(ctx); err != nil && ctx.Err() == nil {
			m.Logger.Warn("reading the price list failed; the previous prices stay in force", "err", err)
		} else if changed {
			m.Logger.Info("pricing changed by another instance", "costs", m.server.Pricing.Costs())
		}
	})
}

// followMemory keeps this instance's memory search (vectors, full text,
// keys) in line with the memories the other instances sharing the
// Postgres store change: each change they commit is notified, and the
// memory is read again from the store (a refresh that fails is tried
// again 3 times, --leader-interval apart, then logged). feed listens
// since before the index was built at Open (nil: it failed). After the
// listening connection fails, it reconnects every --leader-interval and,
// as the changes committed meanwhile were not heard, compares the whole
// index with the store. It does so every --memory-catch-up-interval too,
// for the changes no notification brought while the connection held: a
// refresh that failed 4 times, a write notified on a channel this
// instance does not listen on (another release or schema setting) or made
// outside cairn, a notification lost any other way. What that finds is
// logged as a warning.
func (m *Main) followMemory(ctx context.Context, feed *postgres.MemoryFeed) {
	retry := m.Config.LeaderInterval
	var mu sync.Mutex // one catch-up at a time
	catchUp := func(periodic bool) {
		mu.Lock()
		defer mu.Unlock()
		n, err := m.memory.CatchUp(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			m.Logger.Error("catching up with the memory changes of other instances failed", "err", err)
		case err != nil:
		case !periodic:
			m.Logger.Info("caught up with the memory changes of other instances", "changed", n)
		case n > 0:
			m.Logger.Warn("the periodic catch-up found memory changes of other instances that were not heard", "changed", n)
		}
	}
	done := make(chan struct{})
	go func() { defer close(done); every(ctx, m.Config.MemoryCatchUpInterval, func() { catchUp(true) }) }()
	defer func() { <-done }()
	m.pg.FollowMemoryChanges(ctx, feed, retry, m.Logger, func() { catchUp(false) }, func(c postgres.MemoryChange) {
		for try := 1; ; try++ {
			_, err := m.memory.Refresh(ctx, c.AgentID, c.Key)
			if err == nil || ctx.Err() != nil {
				return
			}
			if try == 4 {
				m.Logger.Error("refreshing a memory another instance changed failed; its search entries may be stale until it changes again",
					"agent", c.AgentID, "memory", c.MemoryID, "err", err)
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(retry):
			}
		}
	})
}
