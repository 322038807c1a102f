package cairn

import "time"

// Community report statuses (spec 3.2).
const (
	ReportPending   = "pending"
	ReportConfirmed = "confirmed"
	ReportRejected  = "rejected"
)

// ReportCategories are the categories a community report may give.
var ReportCategories = []string{"scam", "hack", "exploit", "theft", "mixer", "terrorism", "sanctions_evasion", "fraud", "other"}

// Report is a community report about an address.
type Report struct {
	ID            string    `json:"id"`
	DeveloperID   string    `json:"developerId"`
	AgentID       string    `json:"agentId"`
	Address       string    `json:"address"` // as given
	Chain         string    `json:"chain,omitempty"`
	Family        string    `json:"family"`
	Canonical     string    `json:"canonical"`
	Category      string    `json:"category"`
	Reason        string    `json:"reason"`
	Evidence      []string  `json:"evidence,omitempty"`
	Status        string    `json:"status"`
	AutoEscalated bool      `json:"autoEscalated"`
	CreatedAt     time.Time `json:"createdAt"`
}
