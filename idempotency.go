package cairn

import "time"

// IdempotencyRecord is the answer a create that carried an Idempotency-Key
// gave, kept so that a retry with the same key and body gets it again
// instead of writing (and paying) twice, even after a restart. It is scoped
// to the agent and the route.
type IdempotencyRecord struct {
	AgentID     string    `json:"agentId"`
	Route       string    `json:"route"`
	Key         string    `json:"key"`
	BodyHash    []byte    `json:"bodyHash"` // SHA-256 of the request body
	Status      int       `json:"status"`
	ContentType string    `json:"contentType"`
	ETag        string    `json:"etag,omitempty"`
	Body        []byte    `json:"body"`
	CreatedAt   time.Time `json:"createdAt"`
	ExpiresAt   time.Time `json:"expiresAt"`
}
