package client

import (
	"context"
	"iter"
	"net/http"
	"time"
)

// ReportModeration is an administrator's last decision on a reported
// address.
type ReportModeration struct {
	Action string    `json:"action"` // confirm, reject or delist
	Reason string    `json:"reason"`
	At     time.Time `json:"at"`
}

// Report is a community report as moderators see it.
type Report struct {
	ReportID    string `json:"reportId"`
	DeveloperID string `json:"developerId"`
	AgentID     string `json:"agentId"`
	// Address is the address as reported; Canonical its normalised form
	// in Family.
	Address   string   `json:"address"`
	Chain     string   `json:"chain,omitempty"`
	Family    string   `json:"family"`
	Canonical string   `json:"canonical"`
	Category  string   `json:"category"`
	Reason    string   `json:"reason"`
	Evidence  []string `json:"evidence"`
	Status    string   `json:"status"` // pending, confirmed or rejected
	// Established: the report counts (or counted) toward escalation.
	Established   bool              `json:"established"`
	AutoEscalated bool              `json:"autoEscalated"`
	CreatedAt     time.Time         `json:"createdAt"`
	Moderation    *ReportModeration `json:"moderation,omitempty"`
}

// ReportPage is one page of listReports.
type ReportPage struct {
	Reports    []Report `json:"reports"`
	NextCursor *string  `json:"nextCursor"`
}

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
	return paginate(func(cursor string) ([]Report, *string, error) {
		pg, err := c.ListReports(ctx, status, 100, cursor)
		if err != nil {
			return nil, nil, err
		}
		return pg.Reports, pg.NextCursor, nil
	})
}

// ModeratedReport is a report whose status a moderation changed.
type ModeratedReport struct {
	ReportID string `json:"reportId"`
	Status   string `json:"status"`
}

// Moderation is what a confirmation, rejection or delisting changed.
type Moderation struct {
	Action string `json:"action"` // confirm, reject or delist
	Family string `json:"family"`
	// Address is the canonical address.
	Address string `json:"address"`
	// CommunityListed: the address is in the community tree from the new
	// list version on.
	CommunityListed bool `json:"communityListed"`
	// TreeChanged: a new list version was built for the change.
	TreeChanged bool              `json:"treeChanged"`
	Reports     []ModeratedReport `json:"reports"`
}

// ConfirmReport confirms a community report (confirmReport, admin).
func (c *Client) ConfirmReport(ctx context.Context, reportID, reason string) (*Moderation, error) {
	var out Moderation
	return ret(&out, c.call(ctx, http.MethodPost, "/v1/admin/reports/"+esc(reportID)+"/confirm",
		map[string]string{"reason": reason}, &out, authAdmin))
}

// RejectReport rejects a community report (rejectReport, admin).
func (c *Client) RejectReport(ctx context.Context, reportID, reason string) (*Moderation, error) {
	var out Moderation
	return ret(&out, c.call(ctx, http.MethodPost, "/v1/admin/reports/"+esc(reportID)+"/reject",
		map[string]string{"reason": reason}, &out, authAdmin))
}

// DelistCommunityAddress removes an address from the community list
// (delistCommunityAddress, admin).
func (c *Client) DelistCommunityAddress(ctx context.Context, address, chain, reason string) (*Moderation, error) {
	var out Moderation
	return ret(&out, c.call(ctx, http.MethodPost, "/v1/admin/community/delist",
		map[string]string{"address": address, "chain": chain, "reason": reason}, &out, authAdmin))
}
