package api

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/account"
	"github.com/cairn-dev/cairn/billing"
	"github.com/cairn-dev/cairn/compliance"
	"github.com/cairn-dev/cairn/ingest"
	"github.com/cairn-dev/cairn/media"
	"github.com/cairn-dev/cairn/memory"
	"github.com/cairn-dev/cairn/ratelimit"
	"github.com/cairn-dev/cairn/screening"
	"github.com/cairn-dev/cairn/webhook"
	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
)

// Limits are the request limits of spec 8, each settable by a flag.
type Limits struct {
	RequestsPerKey     int           // per minute per API key (all requests)
	WritesPerAgent     int           // per minute per agent (POST, PUT, PATCH, DELETE)
	RotationsPerIP     int           // per RotationWindow per client IP
	RotationWindow     time.Duration // 15 minutes
	RegistrationsPerIP int           // per hour per client IP (IPv6: per /64)
	RegistrationsAll   int           // per hour from all clients together (0: no cap)
	PublicPerIP        int           // per minute per client IP: proofs and snapshots read without an account
	// SnapshotMiBPerIP is the bytes of source snapshots a client network
	// may download per hour, in MiB (0: unlimited): a snapshot is up to
	// 1 GiB and served to anyone. Counted in memory, per instance.
	SnapshotMiBPerIP int
	MaxBodyBytes     int64 // JSON request bodies
	// Shared keeps the per-key, per-agent write and public counters in
	// Deps.RateLimits too (rotations and registrations always are), so
	// that instances sharing a store count together; off, they live in
	// memory, which is cheaper for a single instance.
	Shared bool
}

// DefaultLimits returns the spec's values (and the documented choices where
// the spec is silent: 10 registrations per hour per IP, 1 MiB JSON bodies).
func DefaultLimits() Limits {
	return Limits{
		RequestsPerKey: 300, WritesPerAgent: 30,
		RotationsPerIP: 3, RotationWindow: 15 * time.Minute,
		RegistrationsPerIP: 10,
		PublicPerIP:        120,
		SnapshotMiBPerIP:   2048,
		MaxBodyBytes:       1 << 20,
	}
}

// Deps are the services the front end calls: the domain services, and the
// few narrow views of storage that HTTP mechanisms need (health, the
// replay of idempotent creates, settled marks, stored rate counters).
type Deps struct {
	// Health reports whether the store is reachable (GET /v1/health).
	Health   Pinger
	Accounts *account.Service
	Tokens   *account.Tokens
	Pricing  *billing.Pricing
	Ledger   *billing.Ledger
	// Deposits credits on-chain deposits (POST /v1/billing/agent/deposit);
	// nil: the route answers 503.
	Deposits *billing.Deposits
	Media    *media.Service
	// Memory serves the memory endpoints.
	Memory *memory.Service
	// Compliance screens addresses and proves their listing (required);
	// Reports takes community reports and their moderation (required).
	Compliance *compliance.Service
	Reports    *compliance.Reports
	// Watchlists keeps the accounts' watchlists and reads their alerts
	// (required).
	Watchlists *compliance.Watchlists
	// Webhooks manages the accounts' webhooks and their deliveries
	// (required; its sender runs apart, see webhook.Service.Run).
	Webhooks *webhook.Service
	// Ingest runs an ingestion on demand (POST /v1/admin/ingest) and
	// reports sources, versions and history; nil: none.
	Ingest Ingester
	// Settled receives the marks of priced writes whose charges stand
	// although they logged no effect (see billing.Recovery); nil: none
	// are kept.
	Settled billing.SettledMarks
	// Idempotency keeps the answers of creates sent with an
	// Idempotency-Key; nil: the header is ignored.
	Idempotency IdempotencyStore
	// RateLimits keeps the counters of the limits on free things
	// (registrations, key rotation attempts, community reports) across
	// restarts and between instances; nil: they are kept in memory.
	RateLimits ratelimit.Store
	// Cursors signs the pagination cursors of listings.
	Cursors *cairn.Cursors
	Clock   cairn.Clock
	Logger  *slog.Logger
	// Registry receives the metrics; nil: a private registry.
	Registry *prometheus.Registry
	// Leading reports whether this instance leads (the cairn_leader
	// metric); nil: not reported.
	Leading func() bool
	// ListRequired makes GET /readyz answer 503 while no sanctions list is
	// loaded (sources are configured and none has been ingested or
	// restored yet), when screening would refuse every address.
	ListRequired bool
	// PublicEVMRPCURL is the JSON-RPC endpoint of the anchoring chain that
	// the proof report page reads the anchored roots from, in the reader's
	// browser (empty: the page does not check the chain). It is shown to
	// every reader and allowed by the pages' Content-Security-Policy.
	PublicEVMRPCURL string
	// AdminToken enables the admin API when non-empty.
	AdminToken string
	// TrustedProxies are the proxies whose X-Forwarded-For is believed when
	// finding a client's IP (none by default: the peer address is used).
	TrustedProxies []string
	Limits         Limits
}

// Pinger reports whether a backend is reachable and usable.
type Pinger interface {
	Ping(ctx context.Context) error
}

// IdempotencyStore keeps the answers of idempotent creates (see
// idempotent).
type IdempotencyStore interface {
	PutIdempotency(ctx context.Context, r *cairn.IdempotencyRecord) error
	Idempotency(ctx context.Context, agentID, route, key string, now time.Time) (*cairn.IdempotencyRecord, error)
}

// Ingester runs an ingestion, rebuilds the list after a community
// escalation and reports sources, versions and history (ingest.Pipeline).
type Ingester interface {
	Run(ctx context.Context) (*ingest.Result, error)
	Escalated(ctx context.Context) error
	Ready() bool
	States() map[string]ingest.SourceState
	History(ctx context.Context, f screening.Family, canonical string) ([]cairn.ListChange, error)
	Versions(ctx context.Context, before uint64, limit int) ([]cairn.ListVersion, error)
	VersionChanges(ctx context.Context, v uint64, offset, limit int) ([]cairn.ListChange, error)
}

// Server is the HTTP front end.
type Server struct {
	Deps
	engine  *gin.Engine
	metrics *metrics

	keyLimit, writeLimit, rotateLimit, registerLimit *ratelimit.Limiter
	registerAllLimit                                 *ratelimit.Limiter
	publicLimit                                      *ratelimit.Limiter
	snapshotBytes                                    *ratelimit.Limiter // MiB per hour per client network
	reportLimit                                      *ratelimit.Limiter
	idemRunning                                      idemRunning
	biller                                           *billing.Biller
}

// New builds the front end with every route registered.
func New(d Deps) (*Server, error) {
	if err := d.defaults(); err != nil {
		return nil, err
	}
	e, err := newEngine(d.TrustedProxies)
	if err != nil {
		return nil, err
	}
	s := &Server{
		Deps:             d,
		engine:           e,
		metrics:          newMetrics(d.Registry),
		keyLimit:         ratelimit.New(d.Limits.RequestsPerKey, time.Minute).Stored(d.sharedRates()),
		writeLimit:       ratelimit.New(d.Limits.WritesPerAgent, time.Minute).Stored(d.sharedRates()),
		rotateLimit:      ratelimit.New(d.Limits.RotationsPerIP, d.Limits.RotationWindow).Stored(d.RateLimits),
		registerLimit:    ratelimit.New(d.Limits.RegistrationsPerIP, time.Hour).Stored(d.RateLimits),
		registerAllLimit: ratelimit.New(d.Limits.RegistrationsAll, time.Hour).Stored(d.RateLimits),
		publicLimit:      ratelimit.New(d.Limits.PublicPerIP, time.Minute).Stored(d.sharedRates()),
		snapshotBytes:    ratelimit.New(d.Limits.SnapshotMiBPerIP, time.Hour),
		reportLimit:      ratelimit.New(ReportsPerHour, time.Hour).Stored(d.RateLimits),
	}
	d.Registry.MustRegister(newChainCollector(s))
	if r, ok := d.Health.(syncReporter); ok {
		d.Registry.MustRegister(newStoreCollector(r))
	}
	if r, ok := d.Health.(unpaidReporter); ok {
		d.Registry.MustRegister(newUnpaidCollector(r))
	}
	s.biller = &billing.Biller{Ledger: d.Ledger, Pricing: d.Pricing, Settled: d.Settled, StatusOf: errStatus,
		Clock: d.Clock, Logger: d.Logger}
	if d.Ledger.OnCharge == nil {
		d.Ledger.OnCharge = s.metrics.charged
		d.Ledger.OnRefund = s.metrics.refunded
	}
	e.Use(recoveryMiddleware, s.requestIDMiddleware, s.logMiddleware, s.metricsMiddleware, recoveryMiddleware, s.bodyLimitMiddleware)
	s.routes()
	return s, nil
}

// sharedRates is where the per-key, per-agent write and public counters
// are kept: RateLimits when Limits.Shared, else nowhere (in memory).
func (d *Deps) sharedRates() ratelimit.Store {
	if d.Limits.Shared {
		return d.RateLimits
	}
	return nil
}

// defaults checks the required services and fills in the optional ones:
// the system clock, the default logger (always wrapped to log request
// ids) and a private metrics registry.
func (d *Deps) defaults() error {
	if d.Compliance == nil || d.Reports == nil {
		return cairn.Errorf(cairn.EINVALID, "api: Deps.Compliance and Deps.Reports are required")
	}
	if d.Clock == nil {
		d.Clock = cairn.SystemClock{}
	}
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	d.Logger = slog.New(RequestIDHandler(d.Logger.Handler()))
	if d.Registry == nil {
		d.Registry = prometheus.NewRegistry()
	}
	return nil
}

// newEngine returns the gin engine: 405 for a known path with another
// method, handlers' contexts falling back to the request's, the given
// trusted proxies, and problem documents for no route and no method.
func newEngine(trustedProxies []string) (*gin.Engine, error) {
	gin.SetMode(gin.ReleaseMode)
	e := gin.New()
	e.HandleMethodNotAllowed = true
	e.ContextWithFallback = true
	if err := e.SetTrustedProxies(trustedProxies); err != nil {
		return nil, cairn.Errorf(cairn.EINVALID, "invalid trusted proxies: %v", err)
	}
	e.NoRoute(h(func(c *gin.Context) error {
		return cairn.Errorf(cairn.ENOTFOUND, "No route for %s %s.", c.Request.Method, c.Request.URL.Path)
	}))
	e.NoMethod(h(func(c *gin.Context) error {
		return cairn.Errorf(cairn.EMETHOD, "Method %s is not allowed on %s.", c.Request.Method, c.Request.URL.Path)
	}))
	return e, nil
}

// Handler returns the http.Handler serving every route.
func (s *Server) Handler() http.Handler { return s.engine }

// Routes lists the registered routes as "METHOD path" with gin's :param
// syntax.
func (s *Server) Routes() []gin.RouteInfo { return s.engine.Routes() }

// handlerFunc is a handler that returns its error instead of writing it.
type handlerFunc func(c *gin.Context) error

// h adapts a handlerFunc: a returned error becomes a problem document
// through the one error table (a panic is recoveryMiddleware's).
func h(f handlerFunc) gin.HandlerFunc {
	return func(c *gin.Context) {
		if err := f(c); err != nil {
			writeError(c, err)
		}
	}
}
