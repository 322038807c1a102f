package evm

import (
	"context"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/chain"
)

// syncedPage is how many records Synced reads at a time, newest first.
const syncedPage = 8

// Synced returns the newest version whose roots the contract holds: the
// newest record of status synced (newer ones are pending, submitted,
// failed or superseded), and false when none is.
func (a *Anchorer) Synced(ctx context.Context) (cairn.Anchor, bool, error) {
	before := uint64(0)
	for {
		rs, err := a.opts.Store.ListAnchors(ctx, a.target, before, syncedPage)
		if err != nil {
			return cairn.Anchor{}, false, err
		}
		for _, r := range rs {
			if r.Status == chain.AnchorSynced {
				return r, true, nil
			}
		}
		if len(rs) < syncedPage {
			return cairn.Anchor{}, false, nil
		}
		before = rs[len(rs)-1].ListVersion
	}
}

// Anchor returns version v's record, and false when v has none (never
// submitted).
func (a *Anchorer) Anchor(ctx context.Context, v uint64) (cairn.Anchor, bool, error) {
	if v == 0 {
		return cairn.Anchor{}, false, nil
	}
	rs, err := a.opts.Store.ListAnchors(ctx, a.target, v+1, 1)
	if err != nil || len(rs) == 0 || rs[0].ListVersion != v {
		return cairn.Anchor{}, false, err
	}
	return rs[0], true, nil
}

// Head is the newest block number read while a transaction was waiting
// for its confirmations (0 before any).
func (a *Anchorer) Head() uint64 { return a.head.Load() }

// Confirmations is the number of blocks a version waits for.
func (a *Anchorer) Confirmations() uint64 { return a.opts.Confirmations }
