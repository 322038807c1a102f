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
