package client

import (
	"context"
	"iter"
	"strconv"
)

// GetListingHistory returns when an address entered and left the lists
// (getListingHistory).
func (c *Client) GetListingHistory(ctx context.Context, address, chain string) (*ListingHistory, error) {
	return getFor[ListingHistory](ctx, c, "/v1/compliance/history",
		query("address", address, "chain", chain))
}

// ListListVersions returns one page of list versions, newest first
// (listListVersions); cursor is the previous page's NextCursor.
func (c *Client) ListListVersions(ctx context.Context, limit int, cursor string) (*ListVersionPage, error) {
	return pageFor[ListVersionPage](ctx, c, "/v1/compliance/versions", limit, cursor)
}

// ListListVersionChanges returns a page of the entries list version
// version listed and delisted (listListVersionChanges); limit 0 is the
// server's default, cursor "" the first page.
func (c *Client) ListListVersionChanges(ctx context.Context, version int64, limit int, cursor string) (*VersionChangePage, error) {
	return pageFor[VersionChangePage](ctx, c, "/v1/compliance/versions/"+strconv.FormatInt(version, 10)+"/changes", limit, cursor)
}

// AllListVersions iterates over every list version, newest first.
func (c *Client) AllListVersions(ctx context.Context) iter.Seq2[ListVersion, error] {
	return paginate(func(cursor string) (*ListVersionPage, error) { return c.ListListVersions(ctx, 100, cursor) },
		func(pg *ListVersionPage) ([]ListVersion, *string) { return pg.Versions, pg.NextCursor })
}
