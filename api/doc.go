// Package api is the HTTP front end of cairn, on gin. It translates HTTP
// only: a handler parses the request, calls one domain service and writes
// the answer; the decisions are the domain's. No function is over 40 lines
// (deps_test.go checks it).
//
// Files are named by what they hold. routes.go registers the system
// endpoints and calls each resource's registration, which lives with its
// handlers: accountRoutes (accounts.go), billingRoutes
// (billing_handlers.go), mediaRoutes (media.go), memoryRoutes (memory.go),
// complianceRoutes (compliance.go) and adminRoutes (admin.go). Endpoints
// are split by resource: memory_history.go, memory_flags.go (pin,
// importance), memory_ttl.go (expiring, TTL alerts, renewal), audit.go,
// compliance_public.go (proofs, snapshots and statistics read without an
// account), reports.go, admin_reports.go, and so on.
//
// Each mechanism exists once: the table that maps error codes to statuses
// (errors.go); JSON binding and rendering with its timestamps (json.go;
// the bodies themselves are package wire's types, shared with the client);
// request ids and logging through the configured logger (middleware.go,
// logging.go); metrics; authentication (auth.go); rate limits
// (ratelimit.go, ratelimit_middleware.go); the billing middleware every
// priced endpoint goes through (billing.go, over billing.Bill); pagination
// with its limit and signed cursors (pagination.go); the multipart reader
// of uploads (multipart.go); byte ranges (ranges.go); idempotent creates
// (memory_idem.go); and the serving of the API documents, with their
// ETags and the negotiation of the skill's form (openapi.go,
// negotiate.go). The documents themselves, the OpenAPI document and the
// skill derived from it, are package api/openapi's.
//
// It imports the root package and the domain packages (account, billing,
// compliance, ingest, media, memory, screening); never the storage or
// chain contracts (store, blob, chain) nor an implementation: cmd/cairn
// builds the domain services over them. The few storage capabilities an
// HTTP mechanism needs (readiness, idempotent replays, settled marks,
// stored rate counters) are narrow interfaces of its own (Deps).
package api
