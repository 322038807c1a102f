package cairn

import (
	"cmp"
	"strings"
	"time"
)

// ListEntry is one listing of an address by a source: the (Family, Address,
// Source, EntityID) tuple is its identity.
type ListEntry struct {
	Family     string `json:"family"`
	Address    string `json:"address"` // canonical
	Source     string `json:"source"`
	EntityID   string `json:"entityId"`
	EntityName string `json:"entityName,omitempty"`
	// Programs are the sanctions programs the source lists the entity
	// under (gov_sdn: OFAC codes such as DPRK3); nil when the source names
	// none, and in entries stored before programs were kept. Not part of
	// the identity, nor of a Merkle leaf.
	Programs Programs `json:"programs,omitempty"`
	Category string   `json:"category"`
	Severity string   `json:"severity"`
}

// Compare orders entries by identity: (family, address, source, entity
// id), byte-wise as strings.Compare, the order of the stores' keys; -1, 0
// or +1 as e sorts before, with or after o.
func (e ListEntry) Compare(o ListEntry) int {
	return cmp.Or(strings.Compare(e.Family, o.Family), strings.Compare(e.Address, o.Address),
		strings.Compare(e.Source, o.Source), strings.Compare(e.EntityID, o.EntityID))
}

// SourceVersion is the state of one source in a list version: the raw
// snapshot its entries come from and the last failure, if any (a failed run
// keeps the previous snapshot and entries).
type SourceVersion struct {
	BlobName   string    `json:"blobName,omitempty"`
	StorageURL string    `json:"storageUrl,omitempty"`
	SHA256     string    `json:"sha256,omitempty"`
	FetchedAt  time.Time `json:"fetchedAt"`
	Entries    int       `json:"entries"`
	LastError  string    `json:"lastError,omitempty"`
	FailedAt   time.Time `json:"failedAt"`
	// Bundled, SourceSHA256 and SnapshotDate describe a snapshot built
	// into the binary (screening.Snapshot).
	Bundled      bool   `json:"bundled,omitempty"`
	SourceSHA256 string `json:"sourceSha256,omitempty"`
	SnapshotDate string `json:"snapshotDate,omitempty"`
	// ParserVersion is the version of the parsing (ingest.ParserVersion)
	// that made the source's listings from the snapshot; 0 before it was
	// recorded.
	ParserVersion int `json:"parserVersion,omitempty"`
}

// ListVersion is the header of one list version. A version has two Merkle
// trees: the sanctions tree (the sanctions sources' addresses) and the
// community tree (community escalations); Root is the sanctions root, as
// it was when there was one tree. Versions stored before the community
// tree existed have empty SanctionsRoot and CommunityRoot, and a Root over
// every source.
type ListVersion struct {
	Version       uint64    `json:"version"`
	BuiltAt       time.Time `json:"builtAt"`
	Root          string    `json:"root"`
	SanctionsRoot string    `json:"sanctionsRoot,omitempty"`
	CommunityRoot string    `json:"communityRoot,omitempty"`
	// ExclusionRoot and CommunityExclusionRoot are the roots of the
	// exclusion trees (the gaps between each tree's addresses); empty in
	// versions stored before they existed.
	ExclusionRoot          string `json:"exclusionRoot,omitempty"`
	CommunityExclusionRoot string `json:"communityExclusionRoot,omitempty"`
	// Leaves counts the sanctions tree's leaves, CommunityLeaves the
	// community tree's.
	Leaves          int                      `json:"leaves"`
	CommunityLeaves int                      `json:"communityLeaves,omitempty"`
	Entries         int                      `json:"entries"`
	Added           int                      `json:"added"`
	Removed         int                      `json:"removed"`
	Sources         map[string]SourceVersion `json:"sources"`
}

// ListChange is one event of an address's listing history.
type ListChange struct {
	Version uint64    `json:"version"`
	At      time.Time `json:"at"`
	Listed  bool      `json:"listed"` // false: delisted
	Entry   ListEntry `json:"entry"`
}
