// Package wiring builds the service over opened stores: the memory service
// with its search state, the front end's dependencies (which store serves
// which role, the domain services over them), the ingestion pipeline and
// the sweeps of expired items. It is the one
// assembly that `cairn serve` (cmd/cairn) and the in-process test server
// (api/apitest) both run.
//
// It takes the stores as their contracts and opens nothing: it imports no
// storage or chain implementation and nothing of cmd.
package wiring

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/account"
	"github.com/cairn-dev/cairn/api"
	"github.com/cairn-dev/cairn/billing"
	"github.com/cairn-dev/cairn/blob"
	"github.com/cairn-dev/cairn/chain"
	"github.com/cairn-dev/cairn/compliance"
	"github.com/cairn-dev/cairn/ingest"
	"github.com/cairn-dev/cairn/media"
	"github.com/cairn-dev/cairn/memory"
	"github.com/cairn-dev/cairn/memory/vector"
	"github.com/cairn-dev/cairn/screening"
	"github.com/cairn-dev/cairn/store"
	"github.com/cairn-dev/cairn/webhook"
)

// MemoryOptions are the settings of the memory service.
type MemoryOptions struct {
	// IndexDir holds the key map and full-text index (derived state,
	// rebuilt at every start) on a store that does not search itself.
	IndexDir string
	// Embedder computes the vectors of records stored without one; nil:
	// none.
	Embedder *memory.Embedder
	// VectorHNSWThreshold is the size from which the vector index is a
	// graph instead of an exact scan.
	VectorHNSWThreshold int
	Clock               cairn.Clock
}

// Memory builds the memory service over db (the shared store) and the blob
// store, and fills its search state from the store before serving: on a
// store that does not search itself (the embedded one), the key map and
// bleve full-text index under IndexDir; on PostgreSQL, which answers key
// and full-text search itself (store.MemorySearch), the text of versions
// stored without it. The vector index is in memory in both cases.
func Memory(ctx context.Context, db store.Store, blobs blob.Store, o MemoryOptions) (*memory.Service, error) {
	var idx *memory.Index // nil: the store searches (PostgreSQL), shared by every instance
	if _, ok := store.SearchOf(db); !ok {
		var err error
		if idx, err = memory.NewIndex(o.IndexDir); err != nil {
			return nil, err
		}
	}
	vecs := vector.New(vector.Config{Threshold: o.VectorHNSWThreshold})
	svc := &memory.Service{Embedder: o.Embedder, Store: db, Audit: db, Blobs: blobs, Index: idx, Vectors: vecs, Secrets: &memory.Secrets{}, Clock: o.Clock}
	if _, err := svc.Rebuild(ctx); err != nil {
		vecs.Close()
		if idx != nil {
			_ = idx.Close()
		}
		return nil, fmt.Errorf("memory search index: %w", err)
	}
	return svc, nil
}

// Parts are what the front end is built from: the opened stores and
// services, the chain's parts and the settings of the command line.
type Parts struct {
	// Core holds every record the instances serving one set of accounts
	// must see alike (accounts, keys, the ledger, idempotency, settled
	// marks, rate counters, lists, proofs, reports).
	Core    store.Store
	Blobs   blob.Store
	Memory  *memory.Service
	Media   *media.Service
	Pricing *billing.Pricing
	Cursors *cairn.Cursors
	// Screening holds the installed sanctions index.
	Screening *screening.Holder
	// Pipeline ingests the sanctions sources; nil: no list is ever
	// loaded (the screening routes answer 503, admin ingest 503).
	Pipeline *ingest.Pipeline
	// Anchorer and Oracle publish the roots on chain; nil: off.
	Anchorer chain.Anchorer
	Oracle   chain.Oracle
	// DepositAddresses derives the agents' deposit addresses;
	// DepositVerifier checks deposits (nil: the deposit route answers 503).
	DepositAddresses chain.DepositAddresses
	DepositVerifier  chain.DepositVerifier
	// Origin is this instance's name on its charges.
	Origin    string
	PublicURL string
	// PublicEVMRPCURL is the EVM JSON-RPC URL the proof report page
	// reads the anchored roots from in the reader's browser ("": none).
	PublicEVMRPCURL string
	// Signer signs the screening proof documents (nil: unsigned).
	Signer    *compliance.Signer
	JWTSecret []byte
	Clock     cairn.Clock
	Logger    *slog.Logger

	StarterCredits      int64
	CreditsPerAPT       int64
	CacheTTL            time.Duration
	ReportMinAccountAge time.Duration
	AdminToken          string
	TrustedProxies      []string
	Limits              api.Limits
	// Webhooks is how webhook deliveries are sent.
	Webhooks webhook.Config
}

// Deps wires the services into the front end's dependencies.
func Deps(p Parts) api.Deps {
	ledger := &billing.Ledger{Store: p.Core, Clock: p.Clock, Cursors: p.Cursors, Origin: p.Origin}
	ready := func() bool { return false }
	var rebuild func(context.Context) error
	var ingester api.Ingester
	if p.Pipeline != nil {
		ready, rebuild, ingester = p.Pipeline.Ready, p.Pipeline.Escalated, p.Pipeline
	}
	complianceSvc := &compliance.Service{Screening: p.Screening, Ready: ready, Screenings: p.Core, Ledger: ledger,
		Blobs: p.Blobs, Proofs: p.Core, Anchorer: p.Anchorer, Oracle: p.Oracle, PublicURL: p.PublicURL, Signer: p.Signer, Clock: p.Clock, Logger: p.Logger}
	// Reporting agents' entries go to the log GET /v1/memory/audit reads.
	reports := &compliance.Reports{Store: p.Core, Accounts: p.Core, Ledger: p.Core, Audit: p.Memory.Audit,
		Rebuild: rebuild, MinAccountAge: p.ReportMinAccountAge, Clock: p.Clock, Logger: p.Logger}
	hooks := &webhook.Service{Store: p.Core, Config: p.Webhooks, Clock: p.Clock, Logger: p.Logger,
		Render: func(a cairn.WatchAlert) any { return compliance.AlertJSON(a) }, Expiring: &webhook.Expiring{Memories: p.Core, Agents: p.Core},
		Recovery: &webhook.Recovery{Versions: p.Core, Ledger: p.Core, Deposit: billing.DepositOf}}
	if p.Anchorer != nil {
		hooks.Recovery.Synced = p.Anchorer.Synced
	}
	if p.Pipeline != nil {
		// Each committed version is announced, and its alerts sent; the
		// top records of its trees are stored before screenings need them.
		prev := p.Pipeline.OnVersion
		p.Pipeline.OnVersion = func(ctx context.Context, v cairn.ListVersion) {
			if prev != nil {
				prev(ctx, v)
			}
			hooks.ListVersion(ctx, v)
			complianceSvc.StoreTops(ctx)
		}
	}
	var deposits *billing.Deposits
	if p.DepositVerifier != nil {
		deposits = &billing.Deposits{Verifier: p.DepositVerifier, Store: p.Core, Audit: p.Memory.Audit,
			CreditsPerAPT: p.CreditsPerAPT, Clock: p.Clock, OnCredited: func(ctx context.Context, r *billing.DepositResult) {
				hooks.DepositCredited(ctx, r.Entry, r.Deposit.TxHash, r.Deposit.Amount)
			}}
	}
	return api.Deps{
		Health: p.Core,
		Accounts: &account.Service{Store: p.Core, Deposits: p.DepositAddresses, Clock: p.Clock, StarterCredits: p.StarterCredits,
			AuthCacheTTL: p.CacheTTL, CreditsPerAPT: p.CreditsPerAPT},
		Deposits:        deposits,
		Tokens:          &account.Tokens{Secret: p.JWTSecret, Clock: p.Clock},
		Pricing:         p.Pricing,
		Ledger:          ledger,
		Media:           p.Media,
		Memory:          p.Memory,
		Compliance:      complianceSvc,
		Reports:         reports,
		Watchlists:      &compliance.Watchlists{Store: p.Core, Clock: p.Clock},
		Webhooks:        hooks,
		Ingest:          ingester,
		Idempotency:     p.Core,
		Settled:         p.Core,
		RateLimits:      p.Core,
		Cursors:         p.Cursors,
		Clock:           p.Clock,
		Logger:          p.Logger,
		AdminToken:      p.AdminToken,
		TrustedProxies:  p.TrustedProxies,
		PublicEVMRPCURL: p.PublicEVMRPCURL,
		Limits:          p.Limits,
	}
}

// PipelineOptions are the settings of the ingestion pipeline.
type PipelineOptions struct {
	Sources        []ingest.Source
	MaxDrop        float64
	MaxSourceBytes int64
	MaxXMLToken    int
	// OnVersion hears each list version committed (the anchoring).
	OnVersion func(context.Context, cairn.ListVersion)
	Clock     cairn.Clock
	Logger    *slog.Logger
}

// Pipeline builds the ingestion of the sanctions sources over the shared
// store and the blob store: its versions installed in holder, the
// community listings of the reports added to them.
func Pipeline(core store.Store, blobs blob.Store, holder *screening.Holder, o PipelineOptions) *ingest.Pipeline {
	return &ingest.Pipeline{Sources: o.Sources, Blobs: blobs, Store: core, Holder: holder, Clock: o.Clock, Logger: o.Logger,
		MaxDrop: o.MaxDrop, MaxSourceBytes: o.MaxSourceBytes, MaxXMLToken: o.MaxXMLToken, Community: compliance.CommunityListings(core),
		OnVersion: o.OnVersion}
}
