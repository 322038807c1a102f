package store

import (
	"context"

	"github.com/cairn-dev/cairn"
)

// Compliance holds the sanctions list versions: the current entries, the
// header of every version and the listing history of every address. It is
// separate from Store; *pebble.DB and *postgres.DB implement it.
type Compliance interface {
	// CommitListVersion stores v and applies its changes to the current
	// entries in one atomic commit: added entries are listed, removed ones
	// delisted, and each change is appended to its address's history.
	// v.Version must be one more than the last committed version, else
	// ECONFLICT; v.Added and v.Removed are set from the slices.
	CommitListVersion(ctx context.Context, v cairn.ListVersion, added, removed []cairn.ListEntry) error

	// LastListVersion returns the newest version, ENOTFOUND when none.
	LastListVersion(ctx context.Context) (cairn.ListVersion, error)

	// ListVersions returns up to limit version headers older than before
	// (0: from the newest), newest first.
	ListVersions(ctx context.Context, before uint64, limit int) ([]cairn.ListVersion, error)

	// ListEntries calls fn with every current entry, in (family, address,
	// source, entity) order; an error from fn stops the scan and is
	// returned.
	ListEntries(ctx context.Context, fn func(cairn.ListEntry) error) error

	// AddressHistory returns the listing changes of a canonical address,
	// oldest first.
	AddressHistory(ctx context.Context, family, address string) ([]cairn.ListChange, error)
}
