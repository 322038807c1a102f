package client

import (
	"context"
	"iter"
	"net/http"
	"time"
)

// ListingEvent is one listing or delisting of an address by a source.
type ListingEvent struct {
	ListVersion int64     `json:"listVersion"`
	At          time.Time `json:"at"`
	Event       string    `json:"event"` // listed or delisted
	Source      string    `json:"source"`
	EntityID    string    `json:"entityId"`
	EntityName  string    `json:"entityName"`
	Category    string    `json:"category"`
}

// ListingHistory is when each source listed and delisted an address,
// oldest first. Listed tells whether the current list version lists it.
type ListingHistory struct {
	Address          string         `json:"address"`
	Chain            string         `json:"chain"`
	Family           string         `json:"family"`
	CanonicalAddress string         `json:"canonicalAddress"`
	Listed           bool           `json:"listed"`
	ListVersion      int64          `json:"listVersion"`
	Events           []ListingEvent `json:"events"`
}

// GetListingHistory returns when an address entered and left the lists
// (getListingHistory).
func (c *Client) GetListingHistory(ctx context.Context, address, chain string) (*ListingHistory, error) {
	var out ListingHistory
	_, err := c.do(ctx, &request{method: http.MethodGet, path: "/v1/compliance/history",
		query: query("address", address, "chain", chain)}, &out)
	return ret(&out, err)
}

// SourceState is the state of one source in a list version: the snapshot
// in use (SHA256 is the digest GetSnapshot serves it by) and, when the
// last run kept the previous version, why (LastError) and when (FailedAt).
type SourceState struct {
	Entries   int        `json:"entries"`
	SHA256    *string    `json:"sha256"`
	BlobName  *string    `json:"blobName"`
	FetchedAt *time.Time `json:"fetchedAt"`
	LastError *string    `json:"lastError"`
	FailedAt  *time.Time `json:"failedAt"`
	// Bundled marks the snapshot built into the server; SourceSHA256 and
	// SnapshotDate are the digest and date of issue of the published file
	// it was extracted from.
	Bundled      bool   `json:"bundled,omitempty"`
	SourceSHA256 string `json:"sourceSha256,omitempty"`
	SnapshotDate string `json:"snapshotDate,omitempty"`
}

// ListVersion is one version of the lists. SanctionsRoot and CommunityRoot
// are nil for a version stored before the community tree existed (Root
// then covers every source).
type ListVersion struct {
	ListVersion        int64                  `json:"listVersion"`
	BuiltAt            time.Time              `json:"builtAt"`
	Root               string                 `json:"root"`
	LeafCount          int                    `json:"leafCount"`
	SanctionsRoot      *string                `json:"sanctionsRoot,omitempty"`
	CommunityRoot      *string                `json:"communityRoot,omitempty"`
	CommunityLeafCount int                    `json:"communityLeafCount,omitempty"`
	Entries            int                    `json:"entries"`
	Added              int                    `json:"added"`
	Removed            int                    `json:"removed"`
	Sources            map[string]SourceState `json:"sources"`
}

// ListVersionPage is one page of listListVersions, newest first.
type ListVersionPage struct {
	Versions   []ListVersion `json:"versions"`
	Limit      int           `json:"limit"`
	NextCursor *string       `json:"nextCursor"`
	HasMore    bool          `json:"hasMore"`
	// NextBefore is the older paging parameter (deprecated: use
	// NextCursor).
	NextBefore *int64 `json:"nextBefore"`
}

// ListListVersions returns one page of list versions, newest first
// (listListVersions); cursor is the previous page's NextCursor.
func (c *Client) ListListVersions(ctx context.Context, limit int, cursor string) (*ListVersionPage, error) {
	var out ListVersionPage
	_, err := c.do(ctx, &request{method: http.MethodGet, path: "/v1/compliance/versions",
		query: query("limit", itoa(limit), "cursor", cursor)}, &out)
	return ret(&out, err)
}

// AllListVersions iterates over every list version, newest first.
func (c *Client) AllListVersions(ctx context.Context) iter.Seq2[ListVersion, error] {
	return paginate(func(cursor string) ([]ListVersion, *string, error) {
		pg, err := c.ListListVersions(ctx, 100, cursor)
		if err != nil {
			return nil, nil, err
		}
		return pg.Versions, pg.NextCursor, nil
	})
}
