package cairn

import "time"

// Audit actions. Memory and media operations, key rotations and
// administrative acts on an agent are recorded with one of these.
const (
	AuditRead       = "read"
	AuditWrite      = "write"
	AuditDelete     = "delete"
	AuditSearch     = "search"
	AuditList       = "list"
	AuditUpload     = "upload"
	AuditPin        = "pin"
	AuditImportance = "importance"
	AuditRotateKey  = "rotate_key"
	AuditRevoke     = "revoke"
	AuditRegister   = "register"
	// AuditReport is a community report an agent made; AuditModeration an
	// administrator's decision on a report of the agent.
	AuditReport     = "report"
	AuditModeration = "moderation"
	// AuditDeposit is a deposit an agent submitted, credited or refused.
	AuditDeposit = "deposit"
)

// AuditActions are every action an audit entry may have: what the audit
// log may be filtered by.
var AuditActions = []string{AuditRead, AuditWrite, AuditDelete, AuditSearch, AuditList, AuditUpload, AuditPin,
	AuditImportance, AuditRotateKey, AuditRevoke, AuditRegister, AuditReport, AuditModeration, AuditDeposit}

// AuditEntry is one line of an agent's operation log.
type AuditEntry struct {
	ID        string         `json:"id"`
	AgentID   string         `json:"agentId"`
	Action    string         `json:"action"`
	Resource  string         `json:"resource,omitempty"` // e.g. a memory id or key
	Detail    map[string]any `json:"detail,omitempty"`
	RequestID string         `json:"requestId,omitempty"`
	IP        string         `json:"ip,omitempty"`
	CreatedAt time.Time      `json:"createdAt"`
}

// AuditFilter narrows an audit listing.
type AuditFilter struct {
	Action string // "" for all
}
