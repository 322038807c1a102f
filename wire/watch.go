package wire

// WatchAddress is an address to watch or to stop watching, with its chain
// (as screened).
type WatchAddress struct {
	Address string `json:"address"`
	Chain   string `json:"chain"`
}

// WatchlistRequest is the body of createWatchlist.
type WatchlistRequest struct {
	Addresses []WatchAddress `json:"addresses"`
	Name      string         `json:"name"`
}

// WatchAddressesRequest is the body of addWatchedAddresses and
// removeWatchedAddresses.
type WatchAddressesRequest struct {
	Addresses []WatchAddress `json:"addresses"`
}

// Watchlist is a developer account's watchlist.
type Watchlist struct {
	AddressCount int    `json:"addressCount"`
	CreatedAt    Time   `json:"createdAt"`
	ID           string `json:"id"`
	Name         string `json:"name"`
	UpdatedAt    Time   `json:"updatedAt"`
}

// RejectedAddress is an address of a watchlist request that was not
// taken: its position in the request and why (invalid_address,
// unknown_chain).
type RejectedAddress struct {
	Address string `json:"address"`
	Chain   string `json:"chain"`
	Index   int    `json:"index"`
	Reason  string `json:"reason"`
}

// WatchlistChange is the answer of a watchlist's creation or of a change
// of its addresses: the watchlist as it is now, how many addresses the
// request added or removed, those it rejected and the credits it took.
type WatchlistChange struct {
	Added         int               `json:"added"`
	CreditCharged int64             `json:"creditCharged"`
	Rejected      []RejectedAddress `json:"rejected"`
	Removed       int               `json:"removed"`
	Watchlist     Watchlist         `json:"watchlist"`
}

// WatchlistPage is one page of the account's watchlists (listWatchlists).
type WatchlistPage struct {
	Paging
	Watchlists []Watchlist `json:"watchlists"`
}

// WatchedAddress is one address of a watchlist: as given, and canonical.
type WatchedAddress struct {
	AddedAt          Time   `json:"addedAt"`
	Address          string `json:"address"`
	CanonicalAddress string `json:"canonicalAddress"`
	Chain            string `json:"chain"`
	Family           string `json:"family"`
}

// WatchedAddressPage is one page of a watchlist's addresses
// (listWatchedAddresses).
type WatchedAddressPage struct {
	Addresses []WatchedAddress `json:"addresses"`
	Paging
}

// AlertMatch is a list entry that makes an alert's change.
type AlertMatch struct {
	Category   string `json:"category"`
	EntityID   string `json:"entityId"`
	EntityName string `json:"entityName"`
	Severity   string `json:"severity"`
	Source     string `json:"source"`
}

// Alert is a change of a watched address in a list version: newly
// sanctioned, newly flagged by the community, or delisted, with the
// request that proves it (membership for a listing, exclusion for a
// delisting).
type Alert struct {
	Address          string       `json:"address"`
	CanonicalAddress string       `json:"canonicalAddress"`
	Chain            string       `json:"chain"`
	Change           string       `json:"change"`
	CreatedAt        Time         `json:"createdAt"`
	Family           string       `json:"family"`
	ID               string       `json:"id"`
	ListVersion      int64        `json:"listVersion"`
	Matches          []AlertMatch `json:"matches"`
	ProofURL         string       `json:"proofUrl"`
	WatchlistID      string       `json:"watchlistId"`
}

// AlertPage is one page of the account's alerts, newest first
// (listAlerts).
type AlertPage struct {
	Alerts []Alert `json:"alerts"`
	Paging
}

// WebhookRequest is the body of createWebhook.
type WebhookRequest struct {
	Events []string `json:"events"`
	URL    string   `json:"url"`
}

// Webhook is a developer account's webhook endpoint. Secret is set only
// in the answers of its creation and of a rotation (shown once).
type Webhook struct {
	CreatedAt      Time     `json:"createdAt"`
	DisabledReason *string  `json:"disabledReason"`
	Enabled        bool     `json:"enabled"`
	Events         []string `json:"events"`
	FailingSince   *Time    `json:"failingSince"`
	ID             string   `json:"id"`
	Secret         string   `json:"secret,omitempty"`
	URL            string   `json:"url"`
}

// WebhookPage is one page of the account's webhooks (listWebhooks).
type WebhookPage struct {
	Paging
	Webhooks []Webhook `json:"webhooks"`
}

// WebhookDelivery is one event sent, or to send, to a webhook.
type WebhookDelivery struct {
	Attempts      int     `json:"attempts"`
	CreatedAt     Time    `json:"createdAt"`
	EventType     string  `json:"eventType"`
	ID            string  `json:"id"`
	LastAttemptAt *Time   `json:"lastAttemptAt"`
	LastError     *string `json:"lastError"`
	LastStatus    *int    `json:"lastStatus"`
	NextAttemptAt *Time   `json:"nextAttemptAt"`
	Status        string  `json:"status"`
}

// WebhookDeliveryPage is one page of a webhook's deliveries, newest first
// (listWebhookDeliveries).
type WebhookDeliveryPage struct {
	Deliveries []WebhookDelivery `json:"deliveries"`
	Paging
}
