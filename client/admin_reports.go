package client

import (
	"context"
	"iter"
	"net/http"

	"github.com/cairn-dev/cairn/wire"
)

// ListReports returns a page of community reports, newest first
// (listReports, admin); status may be empty.
func (c *Client) ListReports(ctx context.Context, status string, limit int, cursor string) (*ReportPage, error) {
	var out ReportPage
	_, err := c.do(ctx, &request{method: http.MethodGet, path: "/v1/admin/reports", auth: authAdmin,
		query: query("status", status, "limit", itoa(limit), "cursor", cursor)}, &out)
	return ret(&out, err)
}

// AllReports iterates over every community report of a status (or all),
// newest first (admin).
func (c *Client) AllReports(ctx context.Context, status string) iter.Seq2[Report, error] {
	return paginate(func(cursor string) (*ReportPage, error) { return c.ListReports(ctx, status, 100, cursor) },
		func(pg *ReportPage) ([]Report, *string) { return pg.Reports, pg.NextCursor })
}

// ConfirmReport confirms a community report (confirmReport, admin).
func (c *Client) ConfirmReport(ctx context.Context, reportID, reason string) (*Moderation, error) {
	return callFor[Moderation](ctx, c, http.MethodPost, "/v1/admin/reports/"+esc(reportID)+"/confirm",
		wire.ModerationRequest{Reason: reason}, authAdmin)
}

// RejectReport rejects a community report (rejectReport, admin).
func (c *Client) RejectReport(ctx context.Context, reportID, reason string) (*Moderation, error) {
	return callFor[Moderation](ctx, c, http.MethodPost, "/v1/admin/reports/"+esc(reportID)+"/reject",
		wire.ModerationRequest{Reason: reason}, authAdmin)
}

// DelistCommunityAddress removes an address from the community list
// (delistCommunityAddress, admin).
func (c *Client) DelistCommunityAddress(ctx context.Context, address, chain, reason string) (*Moderation, error) {
	return callFor[Moderation](ctx, c, http.MethodPost, "/v1/admin/community/delist",
		wire.DelistRequest{Address: address, Chain: chain, Reason: reason}, authAdmin)
}
