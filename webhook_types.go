package cairn

import "time"

// Webhook event types.
const (
	EventWatchlistHit    = "watchlist.hit"
	EventListVersion     = "list.version"
	EventMemoryExpiring  = "memory.expiring"
	EventDepositCredited = "deposit.credited"
	EventAnchorSynced    = "anchor.synced"
)

// WebhookEvents are the event types an endpoint may subscribe to.
var WebhookEvents = []string{EventWatchlistHit, EventListVersion, EventMemoryExpiring, EventDepositCredited, EventAnchorSynced}

// WebhookEndpoint is a developer account's URL that receives the events
// it subscribes to, signed with its secret (Standard Webhooks). An
// endpoint failing for a day is disabled, with the reason.
type WebhookEndpoint struct {
	ID          string   `json:"id"`
	DeveloperID string   `json:"developerId"`
	URL         string   `json:"url"`
	Events      []string `json:"events"`
	// Secret is "whsec_" and the base64 of the signing key.
	Secret    string    `json:"secret"`
	Disabled  bool      `json:"disabled,omitempty"`
	Reason    string    `json:"reason,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	// FailingSince is when the endpoint's first failed attempt since its
	// last success was made (zero: not failing).
	FailingSince time.Time `json:"failingSince"`
}

// Subscribes reports whether the endpoint takes events of the type.
func (e *WebhookEndpoint) Subscribes(event string) bool {
	for _, t := range e.Events {
		if t == event {
			return true
		}
	}
	return false
}

// Delivery states.
const (
	DeliveryPending   = "pending"
	DeliveryDelivered = "delivered"
	DeliveryFailed    = "failed"
)

// WebhookDelivery is one event to send to one endpoint: persisted before
// its first attempt and retried, under the same id (the webhook-id
// header), until the endpoint accepts it or retries run out.
type WebhookDelivery struct {
	ID          string `json:"id"`
	DeveloperID string `json:"developerId"`
	EndpointID  string `json:"endpointId"`
	EventID     string `json:"eventId"`
	Type        string `json:"type"`
	// Body is the JSON body sent: {"type", "timestamp", "data"}.
	Body          []byte    `json:"body"`
	Status        string    `json:"status"`
	Attempts      int       `json:"attempts"`
	NextAttemptAt time.Time `json:"nextAttemptAt"`
	LastAttemptAt time.Time `json:"lastAttemptAt"`
	LastStatus    int       `json:"lastStatus,omitempty"`
	LastError     string    `json:"lastError,omitempty"`
	CreatedAt     time.Time `json:"createdAt"`
}
