package wire

import "time"

// Snapshot is the stored raw copy of a source that a list version was
// built from (dataSnapshots): the snapshot of that SHA-256 (or
// StorageURL) has bytes whose SHA-256 is SHA256.
type Snapshot struct {
	BlobName   string    `json:"blobName"`
	StorageURL string    `json:"storageUrl"`
	SHA256     string    `json:"sha256"`
	FetchedAt  time.Time `json:"fetchedAt"`
	// Bundled marks the snapshot built into the server (installed, not
	// fetched): SourceSHA256 and SnapshotDate are then the digest and the
	// date of issue of the published file it was extracted from.
	Bundled      bool   `json:"bundled,omitempty"`
	SourceSHA256 string `json:"sourceSha256,omitempty"`
	SnapshotDate string `json:"snapshotDate,omitempty"`
}

// ListingEvent is one listing or delisting of an address by a source.
type ListingEvent struct {
	ListVersion int64  `json:"listVersion"`
	At          Time   `json:"at"`
	Event       string `json:"event"` // listed or delisted
	Source      string `json:"source"`
	EntityID    string `json:"entityId"`
	EntityName  string `json:"entityName"`
	// Programs are the listing's sanctions programs (gov_sdn), omitted
	// when none are recorded.
	Programs []string `json:"programs,omitempty"`
	Category string   `json:"category"`
}

// ListingHistory is when each source listed and delisted an address,
// oldest first (getListingHistory). Listed tells whether the current list
// version lists it.
type ListingHistory struct {
	Address          string         `json:"address"`
	CanonicalAddress string         `json:"canonicalAddress"`
	Chain            string         `json:"chain"`
	Events           []ListingEvent `json:"events"`
	Family           string         `json:"family"`
	ListVersion      int64          `json:"listVersion"`
	Listed           bool           `json:"listed"`
}

// SourceState is the state of one source in a list version: the snapshot
// in use (SHA256 is the digest getSnapshot serves it by) and, when the
// last run kept the previous version, why (LastError) and when (FailedAt).
type SourceState struct {
	BlobName *string `json:"blobName"`
	// Bundled marks the snapshot built into the server; SourceSHA256 and
	// SnapshotDate are the digest and date of issue of the published file
	// it was extracted from.
	Bundled      bool    `json:"bundled,omitempty"`
	Entries      int     `json:"entries"`
	FailedAt     *Time   `json:"failedAt"`
	FetchedAt    *Time   `json:"fetchedAt"`
	LastError    *string `json:"lastError"`
	SHA256       *string `json:"sha256"`
	SnapshotDate string  `json:"snapshotDate,omitempty"`
	SourceSHA256 string  `json:"sourceSha256,omitempty"`
}

// ListVersion is one version of the lists. SanctionsRoot and CommunityRoot
// are nil for a version stored before the community tree existed (Root
// then covers every source).
type ListVersion struct {
	Added              int                    `json:"added"`
	BuiltAt            Time                   `json:"builtAt"`
	CommunityLeafCount int                    `json:"communityLeafCount"`
	CommunityRoot      *string                `json:"communityRoot"`
	Entries            int                    `json:"entries"`
	LeafCount          int                    `json:"leafCount"`
	ListVersion        int64                  `json:"listVersion"`
	Removed            int                    `json:"removed"`
	Root               string                 `json:"root"`
	SanctionsRoot      *string                `json:"sanctionsRoot"`
	Sources            map[string]SourceState `json:"sources"`
}

// ListVersionPage is one page of listListVersions, newest first.
type ListVersionPage struct {
	HasMore bool `json:"hasMore"`
	Limit   int  `json:"limit"`
	// NextBefore is the older paging parameter (deprecated: use
	// NextCursor).
	NextBefore *int64        `json:"nextBefore"`
	NextCursor *string       `json:"nextCursor"`
	Versions   []ListVersion `json:"versions"`
}

// VersionChange is one change a list version made
// (listListVersionChanges): an entry it listed (added) or delisted
// (removed), by canonical address and family.
type VersionChange struct {
	Address    string `json:"address"`
	Category   string `json:"category"`
	Change     string `json:"change"` // added or removed
	EntityID   string `json:"entityId"`
	EntityName string `json:"entityName"`
	Family     string `json:"family"`
	Source     string `json:"source"`
}

// VersionChangePage is one page of the changes of a list version.
type VersionChangePage struct {
	BuiltAt     Time            `json:"builtAt"`
	Changes     []VersionChange `json:"changes"`
	HasMore     bool            `json:"hasMore"`
	Limit       int             `json:"limit"`
	ListVersion int64           `json:"listVersion"`
	NextCursor  *string         `json:"nextCursor"`
}

// LastIngestion is the newest source ingestion.
type LastIngestion struct {
	At Time `json:"at"`
	// Bundled: the source in use is the snapshot built into the server,
	// published on SnapshotDate.
	Bundled      bool   `json:"bundled,omitempty"`
	SnapshotDate string `json:"snapshotDate,omitempty"`
	Source       string `json:"source"`
}

// ListStats describes the lists of the current version.
type ListStats struct {
	BySource      map[string]int `json:"bySource"`
	LastIngestion *LastIngestion `json:"lastIngestion"`
	ListVersion   int64          `json:"listVersion"`
	// Sources is the state of each configured source.
	Sources         map[string]SourceState `json:"sources"`
	TotalAddresses  int                    `json:"totalAddresses"`
	TotalScreenings int64                  `json:"totalScreenings"`
}

// ReportStats counts the community reports.
type ReportStats struct {
	ByCategory   map[string]int `json:"byCategory"`
	ByStatus     map[string]int `json:"byStatus"`
	TotalReports int            `json:"totalReports"`
}

// ComplianceStatistics is the result of complianceStats.
type ComplianceStatistics struct {
	Community  ReportStats `json:"community"`
	Compliance ListStats   `json:"compliance"`
}

// ScreeningRateLimit is the free-window and credit accounting of a
// screening or Merkle proof request (they share one window per developer).
type ScreeningRateLimit struct {
	BillableAddresses int   `json:"billableAddresses"`
	CreditCharged     int64 `json:"creditCharged"`
	FreeLimit         int   `json:"freeLimit"`
	FreeRemaining     int   `json:"freeRemaining"`
	FreeReset         Time  `json:"freeReset"`
}
