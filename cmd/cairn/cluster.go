package main

import (
	"context"
	"sync"
	"time"
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
// leadership only) and the anchorer, until ctx ends.
func (m *Main) leaderTasks(ctx context.Context) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); m.sweepKind(ctx, false) }()
	if m.anchorer != nil {
		wg.Add(1)
		go func() { defer wg.Done(); m.anchorer.Run(ctx) }()
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
