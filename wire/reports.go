package wire

// ReportRequest is the body of reportAddress.
type ReportRequest struct {
	Address  string   `json:"address"`
	Chain    string   `json:"chain,omitempty"`
	Category string   `json:"category"`
	Reason   string   `json:"reason"`
	Evidence []string `json:"evidence,omitempty"`
}

// ReportResult is the result of reportAddress.
type ReportResult struct {
	AutoEscalated          bool   `json:"autoEscalated"`
	CountsTowardEscalation bool   `json:"countsTowardEscalation"`
	Disclaimer             string `json:"disclaimer"`
	ReportID               string `json:"reportId"`
	Status                 string `json:"status"`
}

// ReportModeration is an administrator's last decision on a reported
// address.
type ReportModeration struct {
	Action string `json:"action"` // confirm, reject or delist
	At     Time   `json:"at"`
	Reason string `json:"reason"`
}

// Report is a community report as moderators see it.
type Report struct {
	// Address is the address as reported; Canonical its normalised form
	// in Family.
	Address       string `json:"address"`
	AgentID       string `json:"agentId"`
	AutoEscalated bool   `json:"autoEscalated"`
	Canonical     string `json:"canonical"`
	Category      string `json:"category"`
	// Chain is the chain the reporter named, or empty: the server always
	// writes it, the OpenAPI document leaves it optional.
	Chain       string `json:"chain"`
	CreatedAt   Time   `json:"createdAt"`
	DeveloperID string `json:"developerId"`
	// Established: the report counts (or counted) toward escalation.
	Established bool              `json:"established"`
	Evidence    []string          `json:"evidence"`
	Family      string            `json:"family"`
	Moderation  *ReportModeration `json:"moderation,omitempty"`
	Reason      string            `json:"reason"`
	ReportID    string            `json:"reportId"`
	Status      string            `json:"status"` // pending, confirmed or rejected
}

// ReportPage is one page of listReports.
type ReportPage struct {
	NextCursor *string  `json:"nextCursor"`
	Reports    []Report `json:"reports"`
}

// ModerationRequest is the optional body of confirmReport and
// rejectReport.
type ModerationRequest struct {
	Reason string `json:"reason,omitempty"`
}

// DelistRequest is the body of delistCommunityAddress.
type DelistRequest struct {
	Address string `json:"address"`
	Chain   string `json:"chain"`
	Reason  string `json:"reason"`
}

// ModeratedReport is a report whose status a moderation changed.
type ModeratedReport struct {
	ReportID string `json:"reportId"`
	Status   string `json:"status"`
}

// Moderation is what a confirmation, rejection or delisting changed.
type Moderation struct {
	Action string `json:"action"` // confirm, reject or delist
	// Address is the canonical address.
	Address string `json:"address"`
	// CommunityListed: the address is in the community tree from the new
	// list version on.
	CommunityListed bool              `json:"communityListed"`
	Family          string            `json:"family"`
	Reports         []ModeratedReport `json:"reports"`
	// TreeChanged: a new list version was built for the change.
	TreeChanged bool `json:"treeChanged"`
}

// Ingestion is the list version an ingestion built (runIngest). Failures
// names each source that failed (it keeps its previous version) with why.
type Ingestion struct {
	Added       int               `json:"added"`
	Failures    map[string]string `json:"failures"`
	LeafCount   int               `json:"leafCount"`
	ListVersion int64             `json:"listVersion"`
	Removed     int               `json:"removed"`
	Root        string            `json:"root"`
}
