package client

import (
	"context"
	"iter"
	"net/http"
	"strconv"
)

// GetListingHistory returns when an address entered and left the lists
// (getListingHistory).
func (c *Client) GetListingHistory(ctx context.Context, address, chain string) (*ListingHistory, error) {
	var out ListingHistory
	_, err := c.do(ctx, &request{method: http.MethodGet, path: "/v1/compliance/history",
		query: query("address", address, "chain", chain)}, &out)
	return ret(&out, err)
}

// ListListVersions returns one page of list versions, newest first
// (listListVersions); cursor is the previous page's NextCursor.
func (c *Client) ListListVersions(ctx context.Context, limit int, cursor string) (*ListVersionPage, error) {
	var out ListVersionPage
	_, err := c.do(ctx, &request{method: http.MethodGet, path: "/v1/compliance/versions",
		query: query("limit", itoa(limit), "cursor", cursor)}, &out)
	return ret(&out, err)
}

// ListListVersionChanges returns a page of the entries list version
// version listed and delisted (listListVersionChanges); limit 0 is the
// server's default, cursor "" the first page.
func (c *Client) ListListVersionChanges(ctx context.Context, version int64, limit int, cursor string) (*VersionChangePage, error) {
	var out VersionChangePage
	_, err := c.do(ctx, &request{method: http.MethodGet, path: "/v1/compliance/versions/" + strconv.FormatInt(version, 10) + "/changes",
		query: query("limit", itoa(limit), "cursor", cursor)}, &out)
	return ret(&out, err)
}

// AllListVersions iterates over every list version, newest first.
func (c *Client) AllListVersions(ctx context.Context) iter.Seq2[ListVersion, error] {
	return paginate(func(cursor string) (*ListVersionPage, error) { return c.ListListVersions(ctx, 100, cursor) },
		func(pg *ListVersionPage) ([]ListVersion, *string) { return pg.Versions, pg.NextCursor })
}
