package client

import (
	"context"
	"net/http"
)

// ListReports returns a page of community reports (listReports, admin);
// status may be empty.
func (c *Client) ListReports(ctx context.Context, status string, limit int, cursor string) (Object, error) {
	var out Object
	_, err := c.do(ctx, &request{method: http.MethodGet, path: "/v1/admin/reports", auth: authAdmin,
		query: query("status", status, "limit", itoa(limit), "cursor", cursor)}, &out)
	return out, err
}

// ConfirmReport confirms a community report (confirmReport, admin).
func (c *Client) ConfirmReport(ctx context.Context, reportID, reason string) (Object, error) {
	var out Object
	return out, c.call(ctx, http.MethodPost, "/v1/admin/reports/"+esc(reportID)+"/confirm",
		map[string]string{"reason": reason}, &out, authAdmin)
}

// RejectReport rejects a community report (rejectReport, admin).
func (c *Client) RejectReport(ctx context.Context, reportID, reason string) (Object, error) {
	var out Object
	return out, c.call(ctx, http.MethodPost, "/v1/admin/reports/"+esc(reportID)+"/reject",
		map[string]string{"reason": reason}, &out, authAdmin)
}

// DelistCommunityAddress removes an address from the community list
// (delistCommunityAddress, admin).
func (c *Client) DelistCommunityAddress(ctx context.Context, address, chain, reason string) (Object, error) {
	var out Object
	return out, c.call(ctx, http.MethodPost, "/v1/admin/community/delist",
		map[string]string{"address": address, "chain": chain, "reason": reason}, &out, authAdmin)
}
