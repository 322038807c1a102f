package main

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api"
	"github.com/cairn-dev/cairn/billing"
	"github.com/cairn-dev/cairn/blob"
	"github.com/cairn-dev/cairn/chain/aptos"
	"github.com/cairn-dev/cairn/chain/evm"
	"github.com/cairn-dev/cairn/compliance"
	"github.com/cairn-dev/cairn/ingest"
	"github.com/cairn-dev/cairn/internal/wiring"
	"github.com/cairn-dev/cairn/media"
	"github.com/cairn-dev/cairn/memory"
	"github.com/cairn-dev/cairn/screening"
	"github.com/cairn-dev/cairn/store"
	"github.com/cairn-dev/cairn/store/pebble"
	"github.com/cairn-dev/cairn/store/postgres"
	"github.com/cairn-dev/cairn/webhook"
)

var errUsage = errors.New("usage")

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	cfg := DefaultConfig()
	if err := parseServeFlags(newServeFlagSet(&cfg), args, stdout, stderr, getenv); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if err := cfg.Validate(); err != nil {
		fmt.Fprintf(stderr, "cairn serve: %s\n", sentence(err))
		return errUsage
	}
	m := NewMain(cfg, stdout, stderr)
	if err := m.Open(ctx); err != nil {
		_ = m.Close()
		return err
	}
	runErr := m.Run(ctx)
	if err := m.Close(); err != nil && runErr == nil {
		runErr = err
	}
	return runErr
}

// Main is the running service: opened, run until its context ends, closed.
// Tests drive it exactly as the binary does.
type Main struct {
	Config Config
	Stdout io.Writer
	Stderr io.Writer
	Clock  cairn.Clock
	Logger *slog.Logger

	store *pebble.DB // the embedded store, always open
	// core holds every record the instances serving one set of accounts
	// must see alike: pg when --store is a postgres:// URL, else store.
	core store.Store
	pg   *postgres.DB
	// memFeed hears the memory changes of the other instances on pg from
	// before the memory index is built at Open; Run follows it (nil: not
	// listening yet).
	memFeed  *postgres.MemoryFeed
	blobs    blob.Store
	server   *api.Server
	recovery *billing.Recovery
	sweepers []wiring.Sweeper
	memory   *memory.Service
	// media retries the deletes of failed uploads' blobs in the
	// background until Close.
	media    *media.Service
	pipeline *ingest.Pipeline
	// webhooks sends the webhook deliveries (every instance; deliveries
	// are leased, so that instances share them).
	webhooks *webhook.Service
	http     *http.Server
	ln       net.Listener
	// metrics serves GET /metrics on --metrics-listen, pprof the Go
	// profiles on --pprof-listen (nil: off).
	metrics, pprof *sideServer
	wg             sync.WaitGroup

	// listRestored: a stored list version (or, on a first start without
	// --source, the bundled snapshot) was installed at Open, and Run
	// ingests the sources in the background.
	listRestored bool

	// DefaultSources, when set before Open, are the sources --default-sources
	// adds instead of ingest.DefaultSources() (a local server in tests).
	DefaultSources []ingest.Source

	// EVMBackend, when set before Open, is the EVM node anchoring talks to
	// instead of dialling --evm-rpc-url (an in-process chain in tests).
	EVMBackend evm.Backend
	// EVMOracleMaxGas, when set before Open, bounds the gas of one oracle
	// transaction instead of half the block gas limit (small batches in
	// tests).
	EVMOracleMaxGas uint64
	anchorer        *evm.Anchorer
	oracle          *evm.Oracle // nil: anchoring or --evm-oracle is off
	evmClose        func()

	// leading: this instance runs the shared sweeps, scheduled ingestion
	// and anchoring (always, on the embedded store); ledOnce: it has led
	// before (the start-up ingest ran).
	leading atomic.Bool
	ledOnce atomic.Bool
}

// NewMain returns a Main for cfg.
func NewMain(cfg Config, stdout, stderr io.Writer) *Main {
	return &Main{Config: cfg, Stdout: stdout, Stderr: stderr, Clock: cairn.SystemClock{}}
}

// Open opens the stores under the data dir, builds the front end and binds
// the listener. Nothing is served until Run.
func (m *Main) Open(ctx context.Context) error {
	if err := m.Config.Validate(); err != nil {
		return err
	}
	if err := resolveSecrets(&m.Config); err != nil {
		return err
	}
	o := &opening{}
	for _, step := range []func(context.Context, *opening) error{m.openLogging, m.openKeys, m.openStores, m.keepDepositSeed, m.openServices, m.openState, m.openHTTP} {
		if err := step(ctx, o); err != nil {
			return err
		}
	}
	return nil
}

// opening is what the steps of Open hand on to the next ones.
type opening struct {
	serviceKey []byte
	// mnemonic is the deposit seed; newMnemonic tells one generated at
	// this start, not yet written to the data dir.
	mnemonic    string
	newMnemonic bool
	signer      *compliance.Signer // of the screening proof documents
	hd          *aptos.HD
	deposits    *aptos.Verifier
	media       *media.Service
	memory      *memory.Service
	holder      *screening.Holder
	cursors     *cairn.Cursors
	// origin is this boot's name on its charges (the data dir's service
	// key and a random part): recovery refunds only the interrupted charges
	// of this instance's previous boot.
	origin  string
	pricing *billing.Pricing
}

// openLogging sets up the logger and the profiles' listener: from here
// on a start (the first ingest of a large list, a restore) can be
// profiled.
func (m *Main) openLogging(_ context.Context, _ *opening) error {
	if m.Logger == nil {
		l, err := newLogger(m.Stderr, m.Config.LogLevel, m.Config.LogFormat)
		if err != nil {
			return err
		}
		m.Logger = l
	}
	var err error
	if m.pprof, err = m.listenSide("pprof-listen", m.Config.PprofListen, pprofHandler()); err != nil {
		return err
	}
	m.pprof.serve()
	return nil
}

// openKeys reads or creates the data dir's keys: the service key and the
// deposit seed, with the Aptos node deposits are verified on.
func (m *Main) openKeys(_ context.Context, o *opening) error {
	cfg := m.Config
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return fmt.Errorf("data dir: %w", err)
	}
	var err error
	if o.serviceKey, err = loadOrCreateServiceKey(cfg.DataDir); err != nil {
		return fmt.Errorf("service key: %w", err)
	}
	if o.signer, err = openProofSigner(proofKeyPath(cfg.DataDir, cfg.ProofKeyFile)); err != nil {
		return fmt.Errorf("--proof-key-file: %w", err)
	}
	// A new mnemonic is written only once the shared store took its
	// fingerprint (keepDepositSeed): a start refused for another seed
	// leaves none behind.
	if o.mnemonic, o.newMnemonic, err = aptos.ReadOrGenerateMnemonic(cfg.DataDir, cfg.DepositMnemonic, m.Logger); err != nil {
		return fmt.Errorf("deposit seed: %w", err)
	}
	if o.hd, err = aptos.NewHD(o.mnemonic, cfg.AptosNetwork); err != nil {
		return fmt.Errorf("deposit seed: %w", err)
	}
	nodeURL := cmp.Or(cfg.AptosNodeURL, aptos.NodeURLs[cfg.AptosNetwork])
	if o.deposits, err = aptos.NewVerifier(nodeURL, 10*time.Second); err != nil {
		return fmt.Errorf("--aptos-node-url: %w", err)
	}
	return nil
}

// depositSeedSetting names the shared store's record of the deposit
// seed's fingerprint.
const depositSeedSetting = "deposit.seed-fingerprint"

// keepDepositSeed checks the deposit seed against the one the shared
// store's agents got their deposit addresses from (the fingerprint the
// first instance recorded), refusing another: every instance sharing a
// store must derive the same addresses. A seed generated at this start is
// written to the data dir only then.
func (m *Main) keepDepositSeed(ctx context.Context, o *opening) error {
	fp, err := depositSeedFingerprint(o.hd)
	if err != nil {
		return fmt.Errorf("deposit seed: %w", err)
	}
	stored, err := m.core.PutSettingIfAbsent(ctx, depositSeedSetting, []byte(fp))
	if err != nil {
		return fmt.Errorf("deposit seed: %w", err)
	}
	if string(stored) != fp {
		from := "the one in " + filepath.Join(m.Config.DataDir, aptos.MnemonicFile)
		switch {
		case o.newMnemonic:
			from = "a new one generated for this data dir"
		case m.Config.DepositMnemonicFile != "":
			from = "the one in --deposit-mnemonic-file"
		case m.Config.DepositMnemonic != "":
			from = "the one given by --deposit-mnemonic"
		}
		return fmt.Errorf("deposit seed: this instance's (%s, fingerprint %s) is not the one the store's deposit addresses come from (fingerprint %s): "+
			"give every instance sharing the store the same seed (--deposit-mnemonic-file, the deposit-mnemonic file of the first instance's data dir)", from, fp, stored)
	}
	if o.newMnemonic {
		kept, _, err := aptos.KeepMnemonic(m.Config.DataDir, o.mnemonic, m.Logger)
		if err != nil {
			return fmt.Errorf("deposit seed: %w", err)
		}
		if kept != o.mnemonic {
			return errors.New("deposit seed: another process created this data dir's deposit mnemonic at the same moment; start again")
		}
	}
	return nil
}

// depositSeedFingerprint names a deposit seed without revealing it: the
// SHA-256 of a deposit address no agent gets (the last index), which only
// that seed derives.
func depositSeedFingerprint(hd *aptos.HD) (string, error) {
	a, err := hd.Address(math.MaxInt32)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte("cairn deposit seed v1 " + a))
	return hex.EncodeToString(sum[:16]), nil
}

// openStores opens the embedded store, the blob store and the store of
// the records every instance shares (PostgreSQL or the embedded one).
func (m *Main) openStores(ctx context.Context, _ *opening) error {
	var err error
	if m.store, err = pebble.Open(filepath.Join(m.Config.DataDir, "store"), pebble.Options{Clock: m.Clock}); err != nil {
		return fmt.Errorf("open store: %w", err)
	}
	if m.blobs, err = openBlobs(ctx, m.Config, m.Clock); err != nil {
		return fmt.Errorf("open blob store: %w", err)
	}
	logBlobs(m.Logger, m.Config, m.blobs)
	m.core, err = m.openCore(ctx)
	return err
}

// openServices builds media and memory (its search state filled from the
// store), the ingestion pipeline and the anchorer over the stores.
func (m *Main) openServices(ctx context.Context, o *opening) error {
	cfg := m.Config
	o.media = &media.Service{Store: m.core, Blobs: m.blobs, Clock: m.Clock, RecordCacheTTL: cfg.CacheTTL, Logger: m.Logger}
	m.media = o.media
	var err error
	// Memory records, their audit entries and the account entries
	// (register, rotate_key) live in one store: the one log lists them all.
	if m.pg != nil {
		// Listening before the index is built: no change committed by
		// another instance after the build read its memory is missed.
		if m.memFeed, err = m.pg.ListenMemoryChanges(ctx); err != nil {
			m.Logger.Warn("not listening for memory changes yet; the memory search index catches up once listening", "err", err)
		}
	}
	var emb *memory.Embedder // the flags are checked by Config.Validate
	if cfg.EmbedderURL != "" {
		emb = &memory.Embedder{URL: cfg.EmbedderURL, Model: cfg.EmbedderModel}
	}
	if o.memory, err = wiring.Memory(ctx, m.core, m.blobs, wiring.MemoryOptions{IndexDir: filepath.Join(cfg.DataDir, "memory-index"),
		Embedder: emb, VectorHNSWThreshold: cfg.VectorHNSWThreshold, Clock: m.Clock}); err != nil {
		return err
	}
	m.memory = o.memory
	m.sweepers = wiring.Sweepers(m.core, m.blobs, cfg.Blob != "s3", o.memory, o.media)
	o.cursors = cairn.NewCursors(deriveKey(o.serviceKey, "cursor"))
	sources, err := configuredSources(cfg.IngestConfig, m.DefaultSources)
	if err != nil {
		return err
	}
	o.holder = &screening.Holder{}
	if err := m.openAnchorer(ctx, m.core); err != nil {
		return err
	}
	if m.anchorer != nil {
		// Proofs against the anchored version (listVersion=anchored) while
		// a newer one is being anchored: keep the version a new one
		// replaces until the chain holds a newer one.
		o.holder.Retain()
	}
	m.pipeline = wiring.Pipeline(m.core, m.blobs, o.holder, wiring.PipelineOptions{Sources: sources, MaxDrop: cfg.IngestMaxDrop,
		MaxSourceBytes: cfg.IngestMaxBytes, MaxXMLToken: cfg.IngestMaxXMLToken, OnVersion: m.anchorVersion, Clock: m.Clock, Logger: m.Logger})
	return nil
}

// openState installs the sanctions list, anchors it, loads the prices
// and refunds the charges of writes a crash interrupted.
func (m *Main) openState(ctx context.Context, o *opening) error {
	var err error
	if m.listRestored, err = m.openList(ctx); err != nil {
		return err
	}
	if err := m.anchorCurrent(ctx); err != nil {
		return fmt.Errorf("anchor the stored list version: %w", err)
	}
	if o.pricing, err = billing.NewPricing(ctx, m.core); err != nil {
		return fmt.Errorf("load pricing: %w", err)
	}
	base := hex.EncodeToString(deriveKey(o.serviceKey, "ledger-origin")[:8])
	o.origin = billing.BootOrigin(base)
	m.recovery = &billing.Recovery{Ledger: m.core, Effects: o.memory.Audit, Settled: m.core, Settings: m.store,
		Origin: o.origin, LegacyOrigin: base, Clock: m.Clock}
	refunds, err := m.recovery.Recover(ctx)
	if err != nil {
		return fmt.Errorf("recover interrupted charges: %w", err)
	}
	for _, r := range refunds {
		m.Logger.Warn("refunded the charge of an interrupted write", "charge_id", r.RefID, "request_id", r.RequestID,
			"developer_id", r.DeveloperID, "operation", r.Operation, "amount", r.Amount)
	}
	return nil
}

// openHTTP binds the listener and builds the front end over the services,
// and the metrics listener.
func (m *Main) openHTTP(_ context.Context, o *opening) error {
	cfg := m.Config
	var err error
	if m.ln, err = net.Listen("tcp", cfg.Listen); err != nil {
		return err
	}
	publicURL := strings.TrimSuffix(cfg.PublicURL, "/")
	if publicURL == "" {
		publicURL = "http://" + m.ln.Addr().String()
	}
	if err := m.openOracle(o.holder); err != nil {
		return err
	}
	if m.server, err = api.New(m.apiDeps(o, publicURL)); err != nil {
		return err // Close closes the listener
	}
	m.http = &http.Server{
		Handler:           m.server.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       cfg.HTTPReadTimeout,
		WriteTimeout:      cfg.HTTPWriteTimeout,
		IdleTimeout:       cfg.HTTPIdleTimeout,
		MaxHeaderBytes:    cfg.MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(m.Logger.Handler(), slog.LevelWarn),
	}
	m.metrics, err = m.listenSide("metrics-listen", cfg.MetricsListen, m.server.MetricsHandler())
	return err
}

// apiDeps wires the services into the front end's dependencies.
func (m *Main) apiDeps(o *opening, publicURL string) api.Deps {
	cfg := m.Config
	var proxies []string
	for _, p := range strings.Split(cfg.TrustedProxies, ",") {
		if p = strings.TrimSpace(p); p != "" {
			proxies = append(proxies, p)
		}
	}
	parts := wiring.Parts{Core: m.core, Blobs: m.blobs, Memory: o.memory, Media: o.media, Pricing: o.pricing, Cursors: o.cursors,
		Screening: o.holder, Pipeline: m.pipeline, Anchorer: m.chainAnchorer(), DepositAddresses: o.hd, DepositVerifier: o.deposits,
		Origin: o.origin, PublicURL: publicURL, PublicEVMRPCURL: cfg.PublicEVMRPCURL, Signer: o.signer, JWTSecret: jwtSecret(cfg.JWTSecret, o.serviceKey), Clock: m.Clock, Logger: m.Logger,
		StarterCredits: cfg.StarterCredits, CreditsPerAPT: cfg.CreditsPerAPT, CacheTTL: cfg.CacheTTL,
		ReportMinAccountAge: cfg.ReportMinAccountAge, AdminToken: cfg.AdminToken, TrustedProxies: proxies, Limits: cfg.apiLimits(m.pg != nil),
		Webhooks: cfg.webhooks()}
	if m.oracle != nil {
		parts.Oracle = m.oracle
	}
	d := wiring.Deps(parts)
	m.webhooks = d.Webhooks
	m.sweepers = append(m.sweepers, wiring.ExpiringSweeper(m.webhooks))
	// /readyz: the instance leads or follows, and needs a list when it has
	// sources (api.Deps.ListRequired).
	d.Leading, d.ListRequired = m.Leading, len(m.pipeline.Sources) > 0
	return d
}

// MetricsAddr is the address of --metrics-listen (after Open; "" when off).
func (m *Main) MetricsAddr() string { return m.metrics.addr() }

// PprofAddr is the address of --pprof-listen (after Open; "" when off).
func (m *Main) PprofAddr() string { return m.pprof.addr() }

// Addr is the address the service listens on (after Open).
func (m *Main) Addr() string { return m.ln.Addr().String() }

// Run serves until ctx ends, then stops accepting, lets in-flight requests
// finish within the shutdown timeout, and returns.
func (m *Main) Run(ctx context.Context) error {
	m.Logger.Info("cairn serving", "addr", m.Addr(), "data_dir", m.Config.DataDir)
	sweepCtx, stopSweep := context.WithCancel(context.Background())
	m.wg.Add(1)
	go func() { defer m.wg.Done(); m.checkpoint(sweepCtx) }()
	if m.memory.Embedder != nil {
		m.wg.Add(1)
		go func() { defer m.wg.Done(); m.memory.RunEmbedder(sweepCtx, m.Logger) }()
	}
	m.wg.Add(3)
	go func() { defer m.wg.Done(); m.webhooks.Run(sweepCtx) }()
	go func() { defer m.wg.Done(); m.sweepKind(sweepCtx, true) }()
	go func() { defer m.wg.Done(); m.lead(sweepCtx) }()
	if m.pg != nil {
		m.wg.Add(1)
		go func() { defer m.wg.Done(); m.followLists(sweepCtx) }()
		m.wg.Add(1)
		go func() { defer m.wg.Done(); m.followPricing(sweepCtx) }()
		feed := m.memFeed
		m.memFeed = nil
		m.wg.Add(1)
		go func() { defer m.wg.Done(); m.followMemory(sweepCtx, feed) }()
	}
	errc := make(chan error, 1)
	go func() { errc <- m.http.Serve(m.ln) }()
	m.metrics.serve()
	defer m.metrics.close()
	var err error
	select {
	case err = <-errc:
	case <-ctx.Done():
		m.Logger.Info("shutting down", "timeout", m.Config.ShutdownTimeout.String())
		sctx, cancel := context.WithTimeout(context.Background(), m.Config.ShutdownTimeout)
		err = m.http.Shutdown(sctx)
		cancel()
		if e := <-errc; !errors.Is(e, http.ErrServerClosed) && err == nil {
			err = e
		}
	}
	stopSweep()
	m.wg.Wait()
	m.pipeline.Wait() // the rebuilds of escalations made on this instance
	// Refunds still waiting for an unreachable store are left to the
	// next start's recovery; requests still running after the shutdown
	// timeout keep the checkpoint before their start.
	m.server.StopBilling()
	if cerr := m.recovery.Checkpoint(context.Background(), m.server.SettledBefore()); cerr != nil {
		m.Logger.Error("billing checkpoint failed", "err", cerr)
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// checkpointInterval is how often Run records the time before which every
// priced request has ended: the start of the next start-up's recovery scan.
const checkpointInterval = 10 * time.Second

// checkpoint records the billing checkpoint every checkpointInterval until
// ctx ends.
func (m *Main) checkpoint(ctx context.Context) {
	every(ctx, checkpointInterval, func() {
		if err := m.recovery.Checkpoint(ctx, m.server.SettledBefore()); err != nil && ctx.Err() == nil {
			m.Logger.Error("billing checkpoint failed", "err", err)
		}
	})
}

// sweepKind runs the local sweepers (local true) or the shared ones every
// TTL sweep interval until ctx ends.
func (m *Main) sweepKind(ctx context.Context, local bool) {
	if m.Config.TTLSweepInterval <= 0 {
		return
	}
	every(ctx, m.Config.TTLSweepInterval, func() { m.sweepWhere(ctx, func(s wiring.Sweeper) bool { return s.Local == local }) })
}

// every calls fn every interval d until ctx ends.
func every(ctx context.Context, d time.Duration, fn func()) {
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			fn()
		}
	}
}

// sweepOnce runs every sweeper once.
func (m *Main) sweepOnce(ctx context.Context) {
	m.sweepWhere(ctx, func(wiring.Sweeper) bool { return true })
}

// sweepWhere runs once the sweepers that match.
func (m *Main) sweepWhere(ctx context.Context, match func(wiring.Sweeper) bool) {
	now := m.Clock.Now()
	for _, s := range m.sweepers {
		if !match(s) {
			continue
		}
		n, err := s.Sweep(ctx, now)
		if err != nil && ctx.Err() == nil {
			m.Logger.Error("ttl sweep failed", "kind", s.Name, "err", err)
		} else if n > 0 {
			m.Logger.Info("ttl sweep", "kind", s.Name, "removed", n)
		}
	}
}

// Close releases the stores. It is safe after a failed Open.
func (m *Main) Close() error {
	var errs []error
	if m.ln != nil && m.http == nil {
		errs = append(errs, m.ln.Close())
	}
	m.metrics.close()
	m.pprof.close()
	if m.media != nil {
		// Before the stores close: its retried deletes use them.
		m.media.Close()
		m.media = nil
	}
	if m.memFeed != nil {
		m.memFeed.Close()
		m.memFeed = nil
	}
	if m.pg != nil {
		errs = append(errs, m.pg.Close())
		m.pg = nil
	}
	if m.evmClose != nil {
		m.evmClose()
		m.evmClose = nil
	}
	if m.server != nil && m.server.Memory != nil && m.server.Memory.Vectors != nil {
		m.server.Memory.Vectors.Close()
	}
	if m.server != nil && m.server.Memory != nil && m.server.Memory.Index != nil {
		errs = append(errs, m.server.Memory.Index.Close())
		m.server.Memory.Index = nil
	}
	if m.store != nil {
		errs = append(errs, m.store.Close())
		m.store = nil
	}
	return errors.Join(errs...)
}

// openCore returns the store of accounts, keys, the ledger, audit and
// settings: PostgreSQL when --store is a postgres:// URL, else the embedded
// store.
func (m *Main) openCore(ctx context.Context) (store.Store, error) {
	u := m.Config.Store
	switch {
	case u == "" || u == "pebble":
		return m.store, nil
	case isPostgresURL(u):
		deferCharges := m.Config.PostgresChargeDefer
		if deferCharges <= 0 {
			deferCharges = -1 // postgres.Options: none deferred
		}
		pg, err := postgres.Open(ctx, u, postgres.Options{Clock: m.Clock, Schema: m.Config.PostgresSchema,
			ChargeDefer: deferCharges, Logger: m.Logger})
		if err != nil {
			return nil, fmt.Errorf("open postgres store: %w", err)
		}
		m.pg = pg
		return pg, nil
	}
	return nil, fmt.Errorf("--store must be pebble or a postgres:// URL")
}
