package evm

import (
	"context"
	"strings"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/chain"
)

// syncedPage is how many records Synced reads at a time, newest first.
const syncedPage = 8

// Synced returns the newest version whose roots the contract holds: the
// newest record of status synced (newer ones are pending, submitted,
// failed or superseded), and false when none is.
func (a *Anchorer) Synced(ctx context.Context) (chain.AnchorStatus, bool, error) {
	before := uint64(0)
	for {
		rs, err := a.opts.Store.ListAnchors(ctx, a.target, before, syncedPage)
		if err != nil {
			return chain.AnchorStatus{}, false, err
		}
		for _, r := range rs {
			if r.Status == chain.AnchorSynced {
				return a.statusOf(r), true, nil
			}
		}
		if len(rs) < syncedPage {
			return chain.AnchorStatus{}, false, nil
		}
		before = rs[len(rs)-1].ListVersion
	}
}

// statusOf is the status a record shows.
func (a *Anchorer) statusOf(r cairn.Anchor) chain.AnchorStatus {
	return chain.AnchorStatus{Status: r.Status, ListVersion: r.ListVersion, TxHash: r.TxHash, BlockNumber: r.BlockNumber,
		SubmittedAt: r.SubmittedAt, SyncedAt: r.SyncedAt, Error: r.Error, ChainID: a.chainID.Uint64(),
		Contract: strings.ToLower(a.opts.Contract.Hex()), Roots: recordRoots(r)}
}
