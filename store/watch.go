package store

import (
	"context"
	"time"

	"github.com/cairn-dev/cairn"
)

// Watchlists holds developer accounts' watchlists, the index of their
// addresses by canonical address, and the alerts a list version's commit
// records for them. Another account's watchlist is ENOTFOUND.
//
// Alerts are written by CommitListVersion (and a prepared version's
// Commit), in the same commit as the version: the entries the version
// lists (not an added entry already current, which only gets new
// details) and those it removes are intersected with the index of
// watched addresses (a lookup per change or a seek through the index,
// never a scan of every watchlist), and one alert per (watchlist, address, version,
// change) is recorded, so that a version commits its alerts exactly once
// whatever the number of instances.
type Watchlists interface {
	// CreateWatchlist stores w with its addresses (w.Addresses is set to
	// their number; duplicates by (Family, Address) are kept once).
	CreateWatchlist(ctx context.Context, w *cairn.Watchlist, addrs []cairn.WatchedAddress, charge Charge) error

	// Watchlist returns the developer's watchlist (ENOTFOUND when unknown
	// or another account's).
	Watchlist(ctx context.Context, developerID, id string) (*cairn.Watchlist, error)

	// ListWatchlists returns up to limit of the developer's watchlists
	// whose id is above afterID ("": from the first), oldest first.
	ListWatchlists(ctx context.Context, developerID, afterID string, limit int) ([]cairn.Watchlist, error)

	// DeleteWatchlist removes the watchlist and its addresses (its alerts
	// stay); ENOTFOUND when unknown or another account's.
	DeleteWatchlist(ctx context.Context, developerID, id string) error

	// AddWatchedAddresses adds the addresses a watchlist does not hold yet
	// and returns how many it added; the watchlist may then hold at most
	// max (ETOOLARGE with nothing written beyond that). charge, when not
	// nil, is called as Charge says, with the watchlist's changes held
	// back: an error from it writes nothing.
	AddWatchedAddresses(ctx context.Context, developerID, id string, addrs []cairn.WatchedAddress, max int, charge Charge) (int, error)

	// RemoveWatchedAddresses removes the addresses (by Family and Address)
	// the watchlist holds and returns how many it removed.
	RemoveWatchedAddresses(ctx context.Context, developerID, id string, addrs []cairn.WatchedAddress) (int, error)

	// WatchedAddresses returns up to limit addresses of the watchlist
	// after the (family, address) position after ("" : from the first;
	// positions are WatchPosition strings), in (family, address) order.
	WatchedAddresses(ctx context.Context, developerID, id, after string, limit int) ([]cairn.WatchedAddress, error)

	// WatchedCount returns how many addresses all the developer's
	// watchlists hold together.
	WatchedCount(ctx context.Context, developerID string) (int, error)

	// Alerts returns up to limit of the developer's alerts whose id is
	// below beforeID ("": from the newest), newest first.
	Alerts(ctx context.Context, developerID, beforeID string, limit int) ([]cairn.WatchAlert, error)
}

// Charge bills the addresses a change adds to a developer account's
// watchlists: before is how many addresses its watchlists held before the
// change, read under a lock of the account that every change of its
// watchlists takes (on every instance sharing the store), and added how
// many the change adds (more than 0). It is called before the commit; an
// error from it writes nothing. So two concurrent adds of one account,
// on one instance or two, never count the same free addresses.
type Charge func(before, added int) error

// WatchPosition is the paging position of a watched address.
func WatchPosition(a cairn.WatchedAddress) string { return a.Family + "/" + a.Address }

// BuildAlerts groups the watched addresses that a version's changes hit
// into alerts: for each (watchlist, address, change), one alert holding
// the entries that make the change, created at at. hits pairs each change (listed true
// for an added entry) with the index entries of its address. The alerts
// are in the order their first change came, each with a new id.
func BuildAlerts(version uint64, at time.Time, hits []cairn.WatchHit) []cairn.WatchAlert {
	var out []cairn.WatchAlert
	pos := map[[4]string]int{}
	for _, h := range hits {
		change := cairn.AlertChange(h.Entry, h.Listed)
		k := [4]string{h.WatchlistID, h.Family, h.Address, change}
		i, ok := pos[k]
		if !ok {
			i = len(out)
			pos[k] = i
			out = append(out, cairn.WatchAlert{ID: cairn.NewID(), DeveloperID: h.DeveloperID, WatchlistID: h.WatchlistID,
				Family: h.Family, Address: h.Address, Input: h.Input, Chain: h.Chain, Change: change,
				ListVersion: version, CreatedAt: at})
		}
		out[i].Entries = append(out[i].Entries, h.Entry)
	}
	return out
}

// UniqueWatched returns addrs with each (Family, Address) kept once, the
// first of each, in their order.
func UniqueWatched(addrs []cairn.WatchedAddress) []cairn.WatchedAddress {
	seen := make(map[string]bool, len(addrs))
	out := make([]cairn.WatchedAddress, 0, len(addrs))
	for _, a := range addrs {
		if p := WatchPosition(a); !seen[p] {
			seen[p] = true
			out = append(out, a)
		}
	}
	return out
}

// AdmitWatched checks that adding n addresses keeps w within max and, when
// charge is set and n is above 0, charges for them; it returns n.
func AdmitWatched(w *cairn.Watchlist, n, max int, charge func(int) error) (int, error) {
	if w.Addresses+n > max {
		return 0, cairn.Errorf(cairn.ETOOLARGE, "A watchlist holds at most %d addresses.", max).With("limit", max)
	}
	if charge != nil && n > 0 {
		if err := charge(n); err != nil {
			return 0, err
		}
	}
	return n, nil
}
