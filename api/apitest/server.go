package apitest

import (
	"bytes"
	"context"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/account"
	"github.com/cairn-dev/cairn/api"
	"github.com/cairn-dev/cairn/billing"
	"github.com/cairn-dev/cairn/blob/fs"
	"github.com/cairn-dev/cairn/chain/aptos"
	"github.com/cairn-dev/cairn/compliance"
	"github.com/cairn-dev/cairn/ingest"
	"github.com/cairn-dev/cairn/internal/wiring"
	"github.com/cairn-dev/cairn/media"
	"github.com/cairn-dev/cairn/memory"
	"github.com/cairn-dev/cairn/screening"
	"github.com/cairn-dev/cairn/store/pebble"
	"github.com/cairn-dev/cairn/webhook"
)

// AdminToken is the admin token of the test servers.
const AdminToken = "admin-test-token-0123456789abcdef"

// DepositMnemonic is the deposit seed of the test servers: their agents'
// deposit addresses are the same from run to run.
const DepositMnemonic = "shoot island position soft burden budget tooth cruel issue economy destroy above"

// JWTSecret is the secret the test servers sign and check developer
// tokens with.
var JWTSecret = bytes.Repeat([]byte{9}, 32)

// NoNode is the Aptos node of the test servers: an address that refuses
// connections.
const NoNode = "http://127.0.0.1:1/v1"

// CacheTTL is how long a test server remembers an authenticated key's
// agent and a media record: cairn serve's default.
const CacheTTL = 5 * time.Second

// Server is the real service in process: the front end over the domain
// services as cairn serve assembles them (internal/wiring), on Pebble and
// the fs blob store in a temporary directory, served on 127.0.0.1 by
// httptest. No sanctions list is loaded (the screening routes answer 503)
// unless a setup installs a pipeline (Lists, SanctionsLists); deposits are
// verified on NoNode. Everything closes
// when the test ends.
type Server struct {
	*Client
	// Dir is the data dir: the store, the blobs and the memory index
	// under it as under cairn serve's.
	Dir    string
	API    *api.Server
	Store  *pebble.DB
	Blobs  *fs.Store
	Memory *memory.Service
	// Logs holds the server's log lines.
	Logs *LogBuffer

	clock    cairn.Clock
	sweepers []wiring.Sweeper
	setup    []func(*wiring.Parts)
	stop     func()
}

// NewServer starts a Server; each setup may change the parts, once the
// stores and services are open, before the front end is built from them
// (limits, a pipeline over the stores...).
func NewServer(t testing.TB, setup ...func(*wiring.Parts)) *Server {
	t.Helper()
	return start(t, t.TempDir(), setup)
}

// Restart stops the server and starts another on the same data dir with
// the same setups, as cairn serve restarts: what the store and the blobs
// hold stays, what the process held (caches, the search index, counters
// in memory) is built again.
func (s *Server) Restart(t testing.TB) *Server {
	t.Helper()
	s.stop()
	return start(t, s.Dir, s.setup)
}

// start starts a Server on dir.
func start(t testing.TB, dir string, setup []func(*wiring.Parts)) *Server {
	t.Helper()
	ctx := context.Background()
	var closers []func()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			for i := len(closers) - 1; i >= 0; i-- {
				closers[i]()
			}
		})
	}
	t.Cleanup(stop)
	p := wiring.Parts{Clock: &clockSwitch{cairn.SystemClock{}}, AdminToken: AdminToken, Limits: api.DefaultLimits(), CacheTTL: CacheTTL,
		StarterCredits: account.DefaultStarterCredits, CreditsPerAPT: billing.DefaultCreditsPerAPT, Screening: &screening.Holder{},
		JWTSecret: JWTSecret, ReportMinAccountAge: compliance.DefaultMinAccountAge, Cursors: cairn.NewCursors(bytes.Repeat([]byte{7}, 32)), PublicURL: "http://cairn.test"}
	// Webhooks reach receivers on 127.0.0.1 (httptest servers), and the
	// sender looks for due deliveries often.
	p.Webhooks = webhook.DefaultConfig()
	p.Webhooks.AllowPrivate, p.Webhooks.Poll = true, 50*time.Millisecond
	logs := &LogBuffer{}
	p.Logger = slog.New(slog.NewJSONHandler(logs, nil))
	db, err := pebble.Open(filepath.Join(dir, "store"), pebble.Options{Clock: p.Clock})
	must(t, err)
	closers = append(closers, func() { _ = db.Close() })
	blobs, err := fs.New(filepath.Join(dir, "blobs"), fs.Options{Clock: p.Clock})
	must(t, err)
	p.Core, p.Blobs = db, blobs
	p.Memory, err = wiring.Memory(ctx, db, blobs, wiring.MemoryOptions{IndexDir: filepath.Join(dir, "memory-index"), Clock: p.Clock})
	must(t, err)
	closers = append(closers, func() { p.Memory.Vectors.Close(); _ = p.Memory.Index.Close() })
	p.Media = &media.Service{Store: db, Blobs: blobs, Clock: p.Clock, RecordCacheTTL: p.CacheTTL, Logger: p.Logger}
	closers = append(closers, p.Media.Close)
	p.Pricing, err = billing.NewPricing(ctx, db)
	must(t, err)
	p.DepositAddresses, err = aptos.NewHD(DepositMnemonic, "mainnet")
	must(t, err)
	// The deposit verifier of cairn serve, on a node that is not there:
	// a request is checked as always, and a transaction to verify is an
	// upstream error, never a call out of the machine.
	p.DepositVerifier, err = aptos.NewVerifier(NoNode, 10*time.Second)
	must(t, err)
	for _, f := range setup {
		f(&p)
	}
	deps := wiring.Deps(p)
	s, err := api.New(deps)
	must(t, err)
	sendCtx, stopSending := context.WithCancel(context.Background())
	sent := make(chan struct{})
	go func() { deps.Webhooks.Run(sendCtx); close(sent) }()
	closers = append(closers, func() { stopSending(); <-sent })
	hs := httptest.NewServer(s.Handler())
	closers = append(closers, hs.Close)
	return &Server{Client: &Client{URL: hs.URL}, Dir: dir, API: s, Store: db, Blobs: blobs, Memory: p.Memory, Logs: logs,
		clock: p.Clock, sweepers: append(wiring.Sweepers(db, blobs, true, p.Memory, p.Media), wiring.ExpiringSweeper(deps.Webhooks)), setup: setup, stop: stop}
}

// Lists is a setup that serves the sanctions lists of the sources
// (cairn serve's --source values, such as "list:ETH=path"): the pipeline
// as cairn serve builds it, run once before the server starts (or, on a
// Restart, the version it stored).
func Lists(t testing.TB, sources ...string) func(*wiring.Parts) {
	return func(p *wiring.Parts) {
		t.Helper()
		o := wiring.PipelineOptions{MaxDrop: 0.2, Clock: p.Clock, Logger: p.Logger}
		for _, v := range sources {
			s, err := ingest.ParseSourceFlag(v)
			must(t, err)
			o.Sources = append(o.Sources, s)
		}
		p.Pipeline = wiring.Pipeline(p.Core, p.Blobs, p.Screening, o)
		// As at cairn serve's start: the stored version if there is one
		// (after a Restart), else a first ingestion.
		restored, err := p.Pipeline.Restore(context.Background())
		must(t, err)
		if !restored {
			_, err = p.Pipeline.Run(context.Background())
			must(t, err)
		}
	}
}

// Sweep runs every sweep of expired items once at the server's time, as
// cairn serve does each TTL sweep interval; a failed sweep fails the test.
func (s *Server) Sweep(t testing.TB) {
	t.Helper()
	now := s.clock.Now()
	for _, sw := range s.sweepers {
		if _, err := sw.Sweep(context.Background(), now); err != nil {
			t.Fatalf("sweep %s: %v", sw.Name, err)
		}
	}
}

// clockSwitch is the clock of a test server's parts: the system clock
// unless a setup (WithClock) gives them all another.
type clockSwitch struct{ cairn.Clock }

// WithClock is a setup that runs the server on clock; it goes before the
// setups that read the time (Lists).
func WithClock(clock cairn.Clock) func(*wiring.Parts) {
	return func(p *wiring.Parts) { p.Clock.(*clockSwitch).Clock = clock }
}

// Timestamp writes t as the service writes its times.
func Timestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
