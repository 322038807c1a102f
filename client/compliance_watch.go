package client

import (
	"context"
	"iter"
	"net/http"

	"github.com/cairn-dev/cairn/wire"
)

// Watchlists, their alerts and webhooks (wire types).
type (
	WatchAddress        = wire.WatchAddress
	Watchlist           = wire.Watchlist
	WatchlistChange     = wire.WatchlistChange
	WatchlistPage       = wire.WatchlistPage
	WatchedAddressPage  = wire.WatchedAddressPage
	Alert               = wire.Alert
	AlertPage           = wire.AlertPage
	Webhook             = wire.Webhook
	WebhookPage         = wire.WebhookPage
	WebhookDelivery     = wire.WebhookDelivery
	WebhookDeliveryPage = wire.WebhookDeliveryPage
)

// CreateWatchlist watches addresses of the developer account
// (createWatchlist); invalid ones come back in Rejected.
func (c *Client) CreateWatchlist(ctx context.Context, name string, addresses []WatchAddress) (*WatchlistChange, error) {
	return callFor[WatchlistChange](ctx, c, http.MethodPost, "/v1/compliance/watchlists",
		wire.WatchlistRequest{Name: name, Addresses: addresses}, authAgent)
}

// ListWatchlists returns a page of the account's watchlists, oldest first
// (listWatchlists).
func (c *Client) ListWatchlists(ctx context.Context, limit int, cursor string) (*WatchlistPage, error) {
	return pageFor[WatchlistPage](ctx, c, "/v1/compliance/watchlists", limit, cursor)
}

// GetWatchlist returns a watchlist (getWatchlist).
func (c *Client) GetWatchlist(ctx context.Context, id string) (*Watchlist, error) {
	return callFor[Watchlist](ctx, c, http.MethodGet, "/v1/compliance/watchlists/"+esc(id), nil, authAgent)
}

// DeleteWatchlist deletes a watchlist (deleteWatchlist).
func (c *Client) DeleteWatchlist(ctx context.Context, id string) error {
	return c.call(ctx, http.MethodDelete, "/v1/compliance/watchlists/"+esc(id), nil, nil, authAgent)
}

// ListWatchedAddresses returns a page of a watchlist's addresses
// (listWatchedAddresses).
func (c *Client) ListWatchedAddresses(ctx context.Context, id string, limit int, cursor string) (*WatchedAddressPage, error) {
	return pageFor[WatchedAddressPage](ctx, c, "/v1/compliance/watchlists/"+esc(id)+"/addresses", limit, cursor)
}

// AddWatchedAddresses adds addresses to a watchlist (addWatchedAddresses).
func (c *Client) AddWatchedAddresses(ctx context.Context, id string, addresses []WatchAddress) (*WatchlistChange, error) {
	return callFor[WatchlistChange](ctx, c, http.MethodPost, "/v1/compliance/watchlists/"+esc(id)+"/addresses",
		wire.WatchAddressesRequest{Addresses: addresses}, authAgent)
}

// RemoveWatchedAddresses removes addresses from a watchlist
// (removeWatchedAddresses).
func (c *Client) RemoveWatchedAddresses(ctx context.Context, id string, addresses []WatchAddress) (*WatchlistChange, error) {
	return callFor[WatchlistChange](ctx, c, http.MethodDelete, "/v1/compliance/watchlists/"+esc(id)+"/addresses",
		wire.WatchAddressesRequest{Addresses: addresses}, authAgent)
}

// ListAlerts returns a page of the account's alerts, newest first
// (listAlerts).
func (c *Client) ListAlerts(ctx context.Context, limit int, cursor string) (*AlertPage, error) {
	return pageFor[AlertPage](ctx, c, "/v1/compliance/alerts", limit, cursor)
}

// AllAlerts iterates over every alert of the account, newest first.
func (c *Client) AllAlerts(ctx context.Context) iter.Seq2[Alert, error] {
	return paginate(func(cursor string) (*AlertPage, error) { return c.ListAlerts(ctx, 100, cursor) },
		func(p *AlertPage) ([]Alert, *string) { return p.Alerts, p.NextCursor })
}

// CreateWebhook registers a webhook (createWebhook); the answer holds its
// secret, shown once.
func (c *Client) CreateWebhook(ctx context.Context, url string, events []string) (*Webhook, error) {
	return callFor[Webhook](ctx, c, http.MethodPost, "/v1/webhooks", wire.WebhookRequest{URL: url, Events: events}, authAgent)
}

// ListWebhooks returns a page of the account's webhooks (listWebhooks).
func (c *Client) ListWebhooks(ctx context.Context, limit int, cursor string) (*WebhookPage, error) {
	return pageFor[WebhookPage](ctx, c, "/v1/webhooks", limit, cursor)
}

// GetWebhook returns a webhook, without its secret (getWebhook).
func (c *Client) GetWebhook(ctx context.Context, id string) (*Webhook, error) {
	return callFor[Webhook](ctx, c, http.MethodGet, "/v1/webhooks/"+esc(id), nil, authAgent)
}

// DeleteWebhook deletes a webhook and its deliveries (deleteWebhook).
func (c *Client) DeleteWebhook(ctx context.Context, id string) error {
	return c.call(ctx, http.MethodDelete, "/v1/webhooks/"+esc(id), nil, nil, authAgent)
}

// RotateWebhookSecret gives a webhook a new secret, returned once
// (rotateWebhookSecret).
func (c *Client) RotateWebhookSecret(ctx context.Context, id string) (*Webhook, error) {
	return callFor[Webhook](ctx, c, http.MethodPost, "/v1/webhooks/"+esc(id)+"/rotate-secret", nil, authAgent)
}

// EnableWebhook enables a disabled webhook again (enableWebhook).
func (c *Client) EnableWebhook(ctx context.Context, id string) (*Webhook, error) {
	return callFor[Webhook](ctx, c, http.MethodPost, "/v1/webhooks/"+esc(id)+"/enable", nil, authAgent)
}

// ListWebhookDeliveries returns a page of a webhook's deliveries, newest
// first (listWebhookDeliveries).
func (c *Client) ListWebhookDeliveries(ctx context.Context, id string, limit int, cursor string) (*WebhookDeliveryPage, error) {
	return pageFor[WebhookDeliveryPage](ctx, c, "/v1/webhooks/"+esc(id)+"/deliveries", limit, cursor)
}

// RedeliverWebhook sends a delivery again, due now (redeliverWebhook).
func (c *Client) RedeliverWebhook(ctx context.Context, id, deliveryID string) (*WebhookDelivery, error) {
	return callFor[WebhookDelivery](ctx, c, http.MethodPost, "/v1/webhooks/"+esc(id)+"/deliveries/"+esc(deliveryID)+"/redeliver", nil, authAgent)
}
