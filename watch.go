package cairn

import "time"

// Watchlist is a developer account's named set of watched addresses.
// Addresses counts the addresses it holds.
type Watchlist struct {
	ID          string    `json:"id"`
	DeveloperID string    `json:"developerId"`
	Name        string    `json:"name"`
	Addresses   int       `json:"addresses"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
}

// WatchedAddress is one address of a watchlist: the address and chain as
// the developer gave them, and the canonical form a list version's
// changes are matched on ((Family, Address) is its identity within the
// watchlist).
type WatchedAddress struct {
	Family  string    `json:"family"`
	Address string    `json:"address"` // canonical
	Input   string    `json:"input"`
	Chain   string    `json:"chain"`
	AddedAt time.Time `json:"addedAt"`
}

// Alert changes: a watched address newly listed by a sanctions source,
// newly flagged by the community, or delisted by a source.
const (
	AlertSanctioned = "sanctioned"
	AlertCommunity  = "community"
	AlertDelisted   = "delisted"
)

// WatchAlert is a change of a watched address in one list version: one
// per (watchlist, address, list version, change), whatever the number of
// instances that see the version. Entries are the version's added entries
// of the address (the removed ones for AlertDelisted) that make the change.
type WatchAlert struct {
	ID          string      `json:"id"`
	DeveloperID string      `json:"developerId"`
	WatchlistID string      `json:"watchlistId"`
	Family      string      `json:"family"`
	Address     string      `json:"address"` // canonical
	Input       string      `json:"input"`
	Chain       string      `json:"chain"`
	Change      string      `json:"change"`
	ListVersion uint64      `json:"listVersion"`
	Entries     []ListEntry `json:"entries"`
	CreatedAt   time.Time   `json:"createdAt"`
}

// AlertChange returns the change an entry makes when added (listed true)
// or removed: community entries flag, others sanction, removals delist.
func AlertChange(e ListEntry, listed bool) string {
	switch {
	case !listed:
		return AlertDelisted
	case e.Source == "community":
		return AlertCommunity
	}
	return AlertSanctioned
}

// WatchIndexEntry is one watched address found for a change: the
// address in its watchlist.
type WatchIndexEntry struct {
	DeveloperID, WatchlistID string
	WatchedAddress
}

// WatchHit is a change of a version that hits a watched address.
type WatchHit struct {
	WatchIndexEntry
	Entry  ListEntry
	Listed bool
}
