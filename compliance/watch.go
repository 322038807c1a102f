package compliance

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/billing"
	"github.com/cairn-dev/cairn/screening"
	"github.com/cairn-dev/cairn/store"
	"github.com/cairn-dev/cairn/wire"
)

// Watchlist limits.
const (
	// MaxWatched is the most addresses one watchlist holds.
	MaxWatched = 100_000
	// MaxWatchlistName is the longest watchlist name, in characters.
	MaxWatchlistName = 200
)

// Watchlists keeps developer accounts' watchlists: the addresses whose
// listing and delisting each list version's commit turns into alerts
// (store.Watchlists), priced per address beyond billing.FreeWatched.
//
// The free allowance is counted by the store under its lock of the
// account's watchlists (store.Charge), held from the count to the commit
// on every instance sharing the store, so that two concurrent adds of one
// account never both use the same free addresses.
type Watchlists struct {
	Store store.Watchlists
	Clock cairn.Clock
}

// Rejected is an address a watchlist request could not take, by its
// position in the request, with the reason ("invalid_address" or
// "unknown_chain").
type Rejected struct {
	Index   int
	Address string
	Chain   string
	Reason  string
}

// Canonical validates and canonicalises the addresses as screening does:
// the valid ones as watched addresses, the others rejected one by one.
func (w *Watchlists) Canonical(qs []screening.Query) ([]cairn.WatchedAddress, []Rejected) {
	now := w.Clock.Now()
	var ok []cairn.WatchedAddress
	var bad []Rejected
	for i, q := range qs {
		f, err := screening.ChainFamily(q.Chain)
		if err != nil {
			bad = append(bad, Rejected{i, q.Address, q.Chain, "unknown_chain"})
			continue
		}
		canon, st := screening.Normalize(f, q.Address)
		if st == screening.StatusInvalid {
			bad = append(bad, Rejected{i, q.Address, q.Chain, screening.StatusInvalidAddress})
			continue
		}
		ok = append(ok, cairn.WatchedAddress{Family: string(f), Address: canon, Input: strings.TrimSpace(q.Address), Chain: q.Chain, AddedAt: now})
	}
	return ok, bad
}

// checkBatch refuses a request of more addresses than a watchlist holds.
func checkBatch(qs []screening.Query) error {
	if len(qs) > MaxWatched {
		return cairn.Errorf(cairn.ETOOLARGE, "At most %d addresses per request.", MaxWatched).With("limit", MaxWatched)
	}
	return nil
}

// charge bills to bill the addresses a developer account adds to its
// watchlists beyond billing.FreeWatched, at cost credits each: n added to
// the before it watched.
func charge(ctx context.Context, bill *billing.Bill, cost int64) store.Charge {
	return func(before, n int) error {
		billable := max(0, before+n-billing.FreeWatched) - max(0, before-billing.FreeWatched)
		return bill.ChargeAmount(ctx, billing.OpWatch, int64(billable)*cost)
	}
}

// Create makes a watchlist of the valid addresses of qs, charged to bill
// at cost credits per address beyond the free ones, and returns it with
// the addresses it rejected.
func (w *Watchlists) Create(ctx context.Context, developerID, name string, qs []screening.Query, bill *billing.Bill, cost int64) (*cairn.Watchlist, []Rejected, error) {
	name = strings.TrimSpace(name)
	if name == "" || utf8.RuneCountInString(name) > MaxWatchlistName {
		return nil, nil, cairn.Errorf(cairn.EINVALID, "name must be 1 to %d characters.", MaxWatchlistName).With("field", "name")
	}
	if err := checkBatch(qs); err != nil {
		return nil, nil, err
	}
	addrs, bad := w.Canonical(qs)
	addrs = store.UniqueWatched(addrs)
	wl := &cairn.Watchlist{ID: cairn.NewID(), DeveloperID: developerID, Name: name, CreatedAt: w.Clock.Now()}
	if err := w.Store.CreateWatchlist(ctx, wl, addrs, charge(ctx, bill, cost)); err != nil {
		return nil, nil, err
	}
	return wl, bad, nil
}

// Add adds the valid addresses of qs to a watchlist, charged as Create
// charges for those it did not hold, and returns how many it added with
// the addresses it rejected.
func (w *Watchlists) Add(ctx context.Context, developerID, id string, qs []screening.Query, bill *billing.Bill, cost int64) (int, []Rejected, error) {
	if err := checkBatch(qs); err != nil {
		return 0, nil, err
	}
	addrs, bad := w.Canonical(qs)
	n, err := w.Store.AddWatchedAddresses(ctx, developerID, id, addrs, MaxWatched, charge(ctx, bill, cost))
	return n, bad, err
}

// Remove removes the addresses of qs a watchlist holds (free) and
// returns how many it removed with the addresses it rejected.
func (w *Watchlists) Remove(ctx context.Context, developerID, id string, qs []screening.Query) (int, []Rejected, error) {
	if err := checkBatch(qs); err != nil {
		return 0, nil, err
	}
	addrs, bad := w.Canonical(qs)
	n, err := w.Store.RemoveWatchedAddresses(ctx, developerID, id, addrs)
	return n, bad, err
}

// ProofPath is the request that proves an alert's change against its
// list version: the address's membership proof for a listing, its
// exclusion proof (where the version has exclusion trees) for a delisting.
func ProofPath(a cairn.WatchAlert) string {
	return fmt.Sprintf("/v1/compliance/merkle-proof?address=%s&chain=%s&listVersion=%d", url.QueryEscape(a.Input), url.QueryEscape(a.Chain), a.ListVersion)
}

// Get returns the developer account's watchlist (ENOTFOUND for another's).
func (w *Watchlists) Get(ctx context.Context, developerID, id string) (*cairn.Watchlist, error) {
	return w.Store.Watchlist(ctx, developerID, id)
}

// List returns a page of the account's watchlists, oldest first.
func (w *Watchlists) List(ctx context.Context, developerID, afterID string, limit int) ([]cairn.Watchlist, error) {
	return w.Store.ListWatchlists(ctx, developerID, afterID, limit)
}

// Delete removes a watchlist and its addresses; its alerts stay.
func (w *Watchlists) Delete(ctx context.Context, developerID, id string) error {
	return w.Store.DeleteWatchlist(ctx, developerID, id)
}

// Addresses returns a page of a watchlist's addresses after the position
// after (a WatchPosition), in (family, canonical address) order.
func (w *Watchlists) Addresses(ctx context.Context, developerID, id, after string, limit int) ([]cairn.WatchedAddress, error) {
	return w.Store.WatchedAddresses(ctx, developerID, id, after, limit)
}

// WatchPosition is the paging position of a watched address.
func WatchPosition(a cairn.WatchedAddress) string { return store.WatchPosition(a) }

// Alerts returns a page of the account's alerts, newest first.
func (w *Watchlists) Alerts(ctx context.Context, developerID, beforeID string, limit int) ([]cairn.WatchAlert, error) {
	return w.Store.Alerts(ctx, developerID, beforeID, limit)
}

// AlertJSON renders an alert as the alerts listing and the watchlist.hit
// webhook carry it.
func AlertJSON(a cairn.WatchAlert) wire.Alert {
	ms := make([]wire.AlertMatch, len(a.Entries))
	for i, e := range a.Entries {
		ms[i] = wire.AlertMatch{EntityID: e.EntityID, EntityName: e.EntityName, Source: e.Source, Category: e.Category, Severity: e.Severity}
	}
	return wire.Alert{ID: a.ID, WatchlistID: a.WatchlistID, Address: a.Input, Chain: a.Chain, Family: a.Family, CanonicalAddress: a.Address,
		Change: a.Change, ListVersion: int64(a.ListVersion), Matches: ms, ProofURL: ProofPath(a), CreatedAt: wire.At(a.CreatedAt)}
}
