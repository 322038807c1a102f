package client

import (
	"context"
	"net/http"
	"strconv"
)

// GetListingHistory returns when an address entered and left the lists
// (getListingHistory).
func (c *Client) GetListingHistory(ctx context.Context, address, chain string) (Object, error) {
	var out Object
	_, err := c.do(ctx, &request{method: http.MethodGet, path: "/v1/compliance/history",
		query: query("address", address, "chain", chain)}, &out)
	return out, err
}

// ListListVersions returns list versions, newest first, before the given
// version (0: the newest) (listListVersions).
func (c *Client) ListListVersions(ctx context.Context, before int64, limit int) (Object, error) {
	b := ""
	if before > 0 {
		b = strconv.FormatInt(before, 10)
	}
	var out Object
	_, err := c.do(ctx, &request{method: http.MethodGet, path: "/v1/compliance/versions",
		query: query("before", b, "limit", itoa(limit))}, &out)
	return out, err
}
