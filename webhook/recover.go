package webhook

import (
	"context"
	"errors"
	"time"

	"github.com/cairn-dev/cairn"
)

// Recovery reads the facts whose events are enqueued after their commit
// (list.version, deposit.credited, anchor.synced), so that an event a
// crash lost between the two is enqueued at the next start.
type Recovery struct {
	// Versions pages the committed list versions, newest first.
	Versions interface {
		ListVersions(ctx context.Context, before uint64, limit int) ([]cairn.ListVersion, error)
	}
	// Ledger reads every account's ledger entries since a time.
	Ledger interface {
		LedgerSince(ctx context.Context, since time.Time, fn func(e *cairn.LedgerEntry) bool) error
	}
	// Deposit returns the transaction hash and octas of a deposit's
	// ledger entry, ok false for other entries.
	Deposit func(e *cairn.LedgerEntry) (txHash string, octas uint64, ok bool)
	// Synced returns the newest list version the chain holds, ok false
	// when none; nil when nothing is anchored.
	Synced func(ctx context.Context) (cairn.Anchor, bool, error)
}

// Recover enqueues the events of the facts committed within RetryFor
// before now (an older event would be failed by now anyway): the list
// versions, the credited deposits and the newest synced anchor. An
// event already enqueued is not enqueued again (the store keeps one
// delivery per endpoint and event), and a recovered event goes only to
// the endpoints created by its fact's time, so that it reaches those the
// crash deprived of it and no endpoint created since. Every instance may
// run it at start.
func (s *Service) Recover(ctx context.Context) error {
	s.init()
	r := s.Recovery
	if r == nil {
		return nil
	}
	since := s.Clock.Now().Add(-s.Config.RetryFor)
	if err := s.recoverVersions(ctx, since); err != nil {
		return err
	}
	var emitErr error
	err := r.Ledger.LedgerSince(ctx, since, func(e *cairn.LedgerEntry) bool {
		if hash, octas, ok := r.Deposit(e); ok {
			emitErr = s.emitDeposit(ctx, e, hash, octas, e.CreatedAt)
		}
		return emitErr == nil
	})
	if err != nil || emitErr != nil {
		return errors.Join(err, emitErr)
	}
	if r.Synced == nil {
		return nil
	}
	if a, ok, err := r.Synced(ctx); err != nil || !ok || a.SyncedAt.Before(since) {
		return err
	} else if err := s.emitAnchor(ctx, a, a.SyncedAt); err != nil {
		return err
	}
	s.Wake()
	return nil
}

// recoverVersions enqueues the list.version events of the versions built
// since then.
func (s *Service) recoverVersions(ctx context.Context, since time.Time) error {
	var before uint64
	for {
		vs, err := s.Recovery.Versions.ListVersions(ctx, before, 100)
		if err != nil || len(vs) == 0 {
			return err
		}
		for _, v := range vs {
			if v.BuiltAt.Before(since) {
				return nil
			}
			if err := s.emitListVersion(ctx, v, v.BuiltAt); err != nil {
				return err
			}
		}
		before = vs[len(vs)-1].Version
	}
}
