// Package webhook sends the events of a developer account to its webhook
// endpoints: deliveries persisted before they are attempted (store.Webhooks),
// signed as the Standard Webhooks specification says (webhook-id,
// webhook-timestamp, webhook-signature "v1,<base64 HMAC-SHA256 of
// id.timestamp.body>"), retried with exponential backoff for a day, then
// marked failed; an endpoint failing for a day is disabled with the reason.
//
// Events are enqueued once per endpoint and event id: watchlist.hit from
// the store's outbox, written in the list version's commit; list.version,
// deposit.credited and anchor.synced after their fact's commit, and again
// from the recent facts at each start (Recover), so that a crash between
// the two loses none; memory.expiring by the leader's TTL sweep
// (SweepExpiring) for the memories entering the alert window.
//
// Outgoing requests go through a client that refuses, at connect time, any
// address that is not public (loopback, private, link-local, ...), so that
// DNS rebinding cannot reach inside, unless the operator allows private
// targets; it follows no redirect, bounds time and response size, and the
// sender bounds the concurrent deliveries per endpoint and in total.
//
// It imports the root package, store, compliance (for the alerts' form) and
// wire; nothing of api, cmd or a backend.
package webhook
