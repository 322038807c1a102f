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
	ID            string   `json:"id"`
	DeveloperID   string   `json:"developerId"`
	AgentID       string   `json:"agentId"`
	Address       string   `json:"address"` // as given
	Chain         string   `json:"chain,omitempty"`
	Family        string   `json:"family"`
	Canonical     string   `json:"canonical"`
	Category      string   `json:"category"`
	Reason        string   `json:"reason"`
	Evidence      []string `json:"evidence,omitempty"`
	Status        string   `json:"status"`
	AutoEscalated bool     `json:"autoEscalated"`
	// Established records that the reporting account was established when
	// it reported (it had paid, or was old enough and had used the
	// service): only such reports count toward escalation.
	Established bool `json:"established"`
	// Moderation is the administrator's last decision on the address,
	// when there was one.
	Moderation *Moderation `json:"moderation,omitempty"`
	CreatedAt  time.Time   `json:"createdAt"`
}

// Moderation is an administrator's decision on a reported address.
type Moderation struct {
	Action    string    `json:"action"` // ModerationConfirm, ModerationReject or ModerationDelist
	Reason    string    `json:"reason,omitempty"`
	RequestID string    `json:"requestId,omitempty"`
	At        time.Time `json:"at"`
}

// Moderation actions.
const (
	ModerationConfirm = "confirm"
	ModerationReject  = "reject"
	ModerationDelist  = "delist"
)

// Escalation is an address that enough distinct developer accounts reported.
type Escalation struct {
	Family, Canonical string
	Category          string // of the report that crossed the line
	ReportID          string
	Reporters         int
}

// ReportStats counts community reports.
type ReportStats struct {
	Total      int
	ByStatus   map[string]int
	ByCategory map[string]int
}
