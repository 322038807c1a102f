// Package api is the HTTP front end of cairn, on gin: every route
// (routes.go), the one table that maps error codes to statuses (errors.go),
// request ids, logging, metrics, authentication, rate limits and the one
// billing middleware every priced endpoint goes through (the decisions are
// billing.Bill's). Handlers are thin: bind, call one domain service, write
// JSON.
//
// It imports the domain packages (account, billing, compliance, memory,
// media, ...) and the root package; never the storage or chain contracts
// (store, blob, chain) nor an implementation: cmd/cairn builds the domain
// services over them. The few storage capabilities an HTTP mechanism needs
// (readiness, idempotent replays, settled marks, stored rate counters) are
// narrow interfaces of its own (Deps).
package api
