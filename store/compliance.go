package store

import (
	"context"
	"time"

	"github.com/cairn-dev/cairn"
)

// Compliance holds the sanctions list versions: the current entries, the
// header of every version and the listing history of every address.
type Compliance interface {
	// CommitListVersion stores v and applies its changes to the current
	// entries in one atomic commit: added entries are listed, removed ones
	// delisted, and each change is appended to its address's history. An
	// added entry that is already current replaces its details (entity
	// name, programs, category, severity), its listing unchanged. Entries
	// read back with the programs they were stored with (none for entries
	// stored before programs were kept).
	// v.Version must be one more than the last committed version, else
	// ECONFLICT. v.Added is set to the number of added entries that were
	// not current (new listings, and listings again of entries this
	// version removes); an added entry already current changes only its
	// details, so it is not counted and makes no history event. v.Removed
	// is the number of removed entries given.
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

	// VersionChanges returns up to limit of the changes list version v
	// made, after skipping the first offset: the entries it listed and
	// the entries it delisted. The history rows come first (entries v
	// delisted, and entries v listed that a later version delisted), by
	// family, address, listing before delisting, source and entity id;
	// then the entries v listed that are still listed, in key order. An
	// unknown version is ENOTFOUND. Both backends read the page from
	// indexes by version: it costs the changes it skips and returns, not
	// the list (the embedded store scans for versions committed before its
	// index, and the current entries of a version that listed most of the
	// list).
	VersionChanges(ctx context.Context, v uint64, offset, limit int) ([]cairn.ListChange, error)
}

// ListVersionPreparer is a Compliance store that can do the work of
// CommitListVersion that needs only the version's number, build time and
// changes (for a million entries, most of it) before the header is known:
// the pipeline then builds the index and Merkle trees, whose roots the
// header records, at the same time. Until the prepared version is committed
// or discarded, no other version can be committed.
//
// The changes are read by position, so that a caller holding its listings
// in another form (a list of ten million) need not build them all as
// ListEntry values at once.
type ListVersionPreparer interface {
	PrepareListVersion(ctx context.Context, version uint64, builtAt time.Time, added, removed Entries) (PreparedListVersion, error)
}

// PreparerOf returns s as a ListVersionPreparer, ok false when it has
// none (the one place that asks).
func PreparerOf(s Compliance) (p ListVersionPreparer, ok bool) {
	p, ok = s.(ListVersionPreparer)
	return p, ok
}

// Entries is a version's additions or removals, read by position, each
// position once or a few times, in key order: (family, address, source,
// entity id). An EntrySlice may be in any order. Nil is no entries.
type Entries interface {
	Len() int
	At(i int) cairn.ListEntry
}

// EntrySlice is Entries held as a slice, in any order (the store sorts a
// copy when it is not in key order).
type EntrySlice []cairn.ListEntry

// Len is the number of entries.
func (s EntrySlice) Len() int { return len(s) }

// At returns entry i.
func (s EntrySlice) At(i int) cairn.ListEntry { return s[i] }

// PreparedListVersion is a list version waiting for its header.
type PreparedListVersion interface {
	// Commit stores the version with header v, exactly as CommitListVersion
	// would have; v.Version and v.BuiltAt must be those it was prepared
	// with. It releases the version whatever it returns.
	Commit(ctx context.Context, v cairn.ListVersion) error
	// Discard releases a version that will not be committed; it does
	// nothing after Commit.
	Discard()
}
