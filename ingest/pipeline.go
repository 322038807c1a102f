package ingest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
	"github.com/cairn-dev/cairn/screening"
	"github.com/cairn-dev/cairn/store"
)

// DefaultMaxDrop is the share of a source's entries a new version may drop
// before it is refused as a likely broken download.
const DefaultMaxDrop = 0.20

// Snapshot is the stored raw copy of a source version (spec 2.4
// dataSnapshots).
type Snapshot = screening.Snapshot

// SourceState is what the last runs of a source left: its listings in use,
// its snapshot, and the last failure, if any.
type SourceState struct {
	Listings  *screening.Listings // sorted by key
	Snapshot  Snapshot
	IngestAt  time.Time
	Entries   int
	LastError string
	FailedAt  time.Time
	// ParserVersion is the ParserVersion the listings were parsed with
	// (0: unknown, a version stored before it was recorded).
	ParserVersion int
}

// Progress is reported once per source and run.
type Progress struct {
	Source  string
	Entries int           // entries in use after the run
	Took    time.Duration // fetch, snapshot and parse
	Err     error         // why the previous version was kept
	// Reused: the fetched bytes were those of the listings in use, parsed
	// by this ParserVersion, so they were not parsed again.
	Reused bool
}

// Pipeline ingests the configured sources into list versions, stores each
// version (when Store is set) and swaps it into the screening index. Runs
// and rebuilds never overlap.
type Pipeline struct {
	Sources []Source
	Blobs   blob.Store
	// Store keeps every list version, the current entries and the listing
	// history; Restore reads the last version back without any fetch. Nil:
	// versions live in memory only.
	Store   store.Compliance
	Holder  *screening.Holder
	Clock   cairn.Clock
	Logger  *slog.Logger
	Client  *http.Client
	MaxDrop float64
	// MaxSourceBytes caps the download of a source fetched over HTTP
	// (0: DefaultMaxSourceBytes); MaxXMLToken caps one token (a tag or a
	// text run) of an XML source (0: DefaultMaxXMLToken). Beyond either,
	// the source fails with an error naming the limit.
	MaxSourceBytes int64
	MaxXMLToken    int
	// Community, when set, returns the escalated community listings that
	// every list version includes as the community source.
	Community func(ctx context.Context) ([]screening.Listing, error)
	// OnProgress, when set, is called after each source of a run.
	OnProgress func(Progress)
	// OnVersion, when set, is called with each new list version once it is
	// committed and installed (for example to anchor its root on chain). It
	// runs with the run lock held: it must not block on a network.
	OnVersion func(ctx context.Context, v cairn.ListVersion)

	run     sync.Mutex     // one run or rebuild at a time
	waiting atomic.Bool    // a background rebuild waits for run (Escalated)
	bg      sync.WaitGroup // background rebuilds
	mu      sync.Mutex     // guards the fields below
	version uint64
	state   map[string]*SourceState
	// last holds the current version's listings by source (the community
	// listings under screening.SourceCommunity), each sorted by key: the
	// same slices as the sources' states, not a copy.
	last map[string]*screening.Listings
	// lastIx is the index built from last (installed, or replaced since
	// by a newer stored version read by restore, which sets both).
	lastIx *screening.Index
}

// Result is the outcome of a run.
type Result struct {
	Version  uint64
	Root     string
	Leaves   int
	Added    int
	Removed  int
	Failures map[string]string // source -> why its previous version was kept
}

// Run ingests every source once and installs the new list version. A
// source that fails to fetch or parse, or that drops more than MaxDrop of
// its entries, keeps its previous version; the failure is in the result,
// the state and the log.
func (p *Pipeline) Run(ctx context.Context) (*Result, error) {
	p.run.Lock()
	defer p.run.Unlock()
	// Build on the newest stored version: another process sharing the
	// store may have committed versions since this one last ran.
	if _, err := p.restore(ctx, true, false); err != nil {
		p.logger().Error("reading the newest stored list version failed", "err", err)
	}
	res := &Result{Failures: map[string]string{}}
	for _, src := range p.Sources {
		start := time.Now()
		listings, snap, reused, err := p.ingestOne(ctx, src)
		p.mu.Lock()
		st := p.stateOf(src.Name)
		if err == nil && st.Listings.Len() > 0 && float64(listings.Len()) < float64(st.Listings.Len())*(1-p.maxDrop()) {
			err = fmt.Errorf("new version has %d entries, previous %d: more than %.0f%% dropped", listings.Len(), st.Listings.Len(), p.maxDrop()*100)
		}
		if err != nil {
			msg := RedactText(err.Error())
			st.LastError, st.FailedAt = msg, p.Clock.Now()
			res.Failures[src.Name] = msg
			p.logger().Error("ingestion kept the previous version", "source", src.Name, "err", msg)
			err = errors.New(msg)
		} else {
			st.Listings, st.Snapshot, st.IngestAt, st.LastError = listings, snap, snap.FetchedAt, ""
			st.Entries, st.ParserVersion = listings.Len(), ParserVersion
			p.logger().Info("source ingested", "source", src.Name, "entries", listings.Len(), "sha256", snap.SHA256,
				"parsed", !reused)
		}
		n := st.Listings.Len()
		p.mu.Unlock()
		if p.OnProgress != nil {
			p.OnProgress(Progress{Source: src.Name, Entries: n, Took: time.Since(start), Err: err, Reused: reused})
		}
	}
	if len(p.Sources) > 0 && len(res.Failures) == len(p.Sources) {
		// Every source failed: nothing was fetched, so there is no new
		// version to store; the installed one stays, as the log says.
		p.mu.Lock()
		ix := p.lastIx
		p.mu.Unlock()
		if ix != nil {
			p.logger().Warn("every source failed: the installed list version stays", "version", ix.Version)
			res.Version, res.Root, res.Leaves = ix.Version, rootHex(ix), ix.Len()
			return res, nil
		}
	}
	ix, v, err := p.rebuildShared(ctx, true)
	if err != nil {
		return nil, err
	}
	res.Version, res.Root, res.Leaves, res.Added, res.Removed = ix.Version, v.Root, v.Leaves, v.Added, v.Removed
	return res, nil
}

// Rebuild makes a new list version from the sources' current versions and
// the community listings, without fetching anything: a community
// escalation takes effect at once, not at the next scheduled run.
func (p *Pipeline) Rebuild(ctx context.Context) (*screening.Index, error) {
	p.run.Lock()
	defer p.run.Unlock()
	ix, _, err := p.rebuildShared(ctx, false)
	return ix, err
}

// rebuildShared is rebuild on a store other processes commit versions to
// as well: when the commit is refused (ECONFLICT: another process committed
// that version number first), the stored version becomes the base (its
// sources' listings too, unless keepSources: a run's fresh fetch) and the
// version is built again on it, up to three times. p.run is held.
func (p *Pipeline) rebuildShared(ctx context.Context, keepSources bool) (*screening.Index, cairn.ListVersion, error) {
	for attempt := 1; ; attempt++ {
		ix, v, err := p.rebuild(ctx)
		if !cairn.IsCode(err, cairn.ECONFLICT) || p.Store == nil || attempt == 3 {
			return ix, v, err
		}
		if _, rerr := p.restore(ctx, true, keepSources); rerr != nil {
			return nil, v, fmt.Errorf("%w; reading the newer stored version: %v", err, rerr)
		}
	}
}

// stateOf returns the state of a source, creating it; p.mu is held.
func (p *Pipeline) stateOf(name string) *SourceState {
	if p.state == nil {
		p.state = map[string]*SourceState{}
	}
	st := p.state[name]
	if st == nil {
		st = &SourceState{}
		p.state[name] = st
	}
	return st
}

func (p *Pipeline) maxDrop() float64 {
	if p.MaxDrop <= 0 {
		return DefaultMaxDrop
	}
	return p.MaxDrop
}

func (p *Pipeline) logger() *slog.Logger {
	if p.Logger == nil {
		return slog.Default()
	}
	return p.Logger
}

// States returns a copy of every source's state, without its listings.
func (p *Pipeline) States() map[string]SourceState {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make(map[string]SourceState, len(p.state))
	for k, v := range p.state {
		c := *v
		c.Listings = nil
		out[k] = c
	}
	return out
}
