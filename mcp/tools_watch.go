package mcp

import (
	"context"

	"github.com/cairn-dev/cairn/client"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// WatchArgs are the arguments of watch_addresses.
type WatchArgs struct {
	Watchlist string                `json:"watchlist,omitempty" jsonschema:"the id of a watchlist to add to; empty: a new watchlist named name"`
	Name      string                `json:"name,omitempty" jsonschema:"the name of a new watchlist"`
	Addresses []client.WatchAddress `json:"addresses" jsonschema:"addresses with their chain (ethereum, bitcoin, tron...), up to 100000"`
}

// UnwatchArgs are the arguments of unwatch_addresses.
type UnwatchArgs struct {
	Watchlist string                `json:"watchlist" jsonschema:"the id of the watchlist"`
	Addresses []client.WatchAddress `json:"addresses" jsonschema:"addresses with their chain"`
}

// PageArgs page a listing.
type PageArgs struct {
	Limit  int    `json:"limit,omitempty" jsonschema:"1 to 100 (default 50)"`
	Cursor string `json:"cursor,omitempty" jsonschema:"nextCursor of the previous page"`
}

// WebhookArgs are the arguments of webhook_create.
type WebhookArgs struct {
	URL    string   `json:"url" jsonschema:"https URL that receives the events (Standard Webhooks: signed with the secret returned once)"`
	Events []string `json:"events" jsonschema:"watchlist.hit, list.version, memory.expiring, deposit.credited, anchor.synced"`
}

// DeliveriesArgs are the arguments of webhook_deliveries.
type DeliveriesArgs struct {
	Webhook string `json:"webhook" jsonschema:"the id of the webhook"`
	PageArgs
}

func (s *server) addWatchTools(srv *sdk.Server) {
	tool(srv, s, "watch_addresses", "Watch addresses for sanctions listings and delistings: each list version that lists or delists one "+
		"records an alert (alerts tool) and sends a signed watchlist.hit to the account's webhooks. Creates a watchlist, or adds to "+
		"one; invalid addresses come back in rejected. The first 1000 watched addresses are free, then 1 credit per address added.",
		func(ctx context.Context, a WatchArgs) (any, error) {
			if a.Watchlist == "" {
				return s.c.CreateWatchlist(ctx, a.Name, a.Addresses)
			}
			return s.c.AddWatchedAddresses(ctx, a.Watchlist, a.Addresses)
		})
	tool(srv, s, "unwatch_addresses", "Stop watching addresses of a watchlist (free).",
		func(ctx context.Context, a UnwatchArgs) (any, error) {
			return s.c.RemoveWatchedAddresses(ctx, a.Watchlist, a.Addresses)
		})
	pageTool(srv, s, "watchlists", "The account's watchlists with their address counts (free).", s.c.ListWatchlists)
	pageTool(srv, s, "alerts", "Alerts of watched addresses, newest first: sanctioned, community or delisted, with the list version, "+
		"the matched entities and proofUrl, the request that proves the change (free).", s.c.ListAlerts)
	tool(srv, s, "webhook_create", "Register a webhook for the account's events; the answer holds its secret, shown once (free).",
		func(ctx context.Context, a WebhookArgs) (any, error) {
			return s.c.CreateWebhook(ctx, a.URL, a.Events)
		})
	pageTool(srv, s, "webhook_list", "The account's webhooks: enabled or disabled with the reason (free).", s.c.ListWebhooks)
	tool(srv, s, "webhook_deliveries", "A webhook's deliveries, newest first: pending, delivered or failed, with the last attempt (free).",
		func(ctx context.Context, a DeliveriesArgs) (any, error) {
			return s.c.ListWebhookDeliveries(ctx, a.Webhook, a.Limit, a.Cursor)
		})
}

// pageTool adds a tool that reads a page of a listing with list.
func pageTool[T any](srv *sdk.Server, s *server, name, desc string, list func(ctx context.Context, limit int, cursor string) (T, error)) {
	tool(srv, s, name, desc, func(ctx context.Context, a PageArgs) (any, error) { return list(ctx, a.Limit, a.Cursor) })
}
