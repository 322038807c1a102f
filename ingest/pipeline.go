package ingest

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
	"github.com/cairn-dev/cairn/screening"
)

// DefaultMaxDrop is the share of a source's entries a new version may drop
// before it is refused as a likely broken download.
const DefaultMaxDrop = 0.20

// Snapshot is the stored raw copy of a source version (spec 2.4
// dataSnapshots).
type Snapshot struct {
	BlobName   string    `json:"blobName"`
	StorageURL string    `json:"storageUrl"`
	SHA256     string    `json:"sha256"`
	FetchedAt  time.Time `json:"fetchedAt"`
}

// SourceState is what the last runs of a source left: its listings in use,
// its snapshot, and the last failure, if any.
type SourceState struct {
	Listings  []screening.Listing
	Snapshot  Snapshot
	IngestAt  time.Time
	LastError string
}

// Pipeline ingests the configured sources into list versions and swaps
// each new version into the screening index. Runs never overlap.
type Pipeline struct {
	Sources []Source
	Blobs   blob.Store
	Holder  *screening.Holder
	Clock   cairn.Clock
	Logger  *slog.Logger
	Client  *http.Client
	MaxDrop float64
	// Community, when set, returns the escalated community listings that
	// every list version includes as the community source.
	Community func(ctx context.Context) ([]screening.Listing, error)

	run     sync.Mutex
	mu      sync.Mutex
	version uint64
	state   map[string]*SourceState
}

// Result is the outcome of a run.
type Result struct {
	Version  uint64
	Root     string
	Leaves   int
	Failures map[string]string // source -> why its previous version was kept
}

// Run ingests every source once and installs the new list version. A
// source that fails to fetch or parse, or that drops more than MaxDrop of
// its entries, keeps its previous version; the failure is in the result,
// the state and the log.
func (p *Pipeline) Run(ctx context.Context) (*Result, error) {
	p.run.Lock()
	defer p.run.Unlock()
	p.mu.Lock()
	if p.state == nil {
		p.state = map[string]*SourceState{}
	}
	p.mu.Unlock()
	res := &Result{Failures: map[string]string{}}
	for _, src := range p.Sources {
		listings, snap, err := p.ingestOne(ctx, src)
		p.mu.Lock()
		st := p.state[src.Name]
		if st == nil {
			st = &SourceState{}
			p.state[src.Name] = st
		}
		if err == nil && len(st.Listings) > 0 && float64(len(listings)) < float64(len(st.Listings))*(1-p.maxDrop()) {
			err = fmt.Errorf("new version has %d entries, previous %d: more than %.0f%% dropped", len(listings), len(st.Listings), p.maxDrop()*100)
		}
		if err != nil {
			st.LastError = err.Error()
			res.Failures[src.Name] = err.Error()
			p.logger().Error("ingestion kept the previous version", "source", src.Name, "err", err)
		} else {
			st.Listings, st.Snapshot, st.IngestAt, st.LastError = listings, snap, snap.FetchedAt, ""
			p.logger().Info("source ingested", "source", src.Name, "entries", len(listings), "sha256", snap.SHA256)
		}
		p.mu.Unlock()
	}
	ix, err := p.rebuild(ctx)
	if err != nil {
		return nil, err
	}
	root := ix.Root()
	res.Version, res.Root, res.Leaves = ix.Version, "0x"+fmt.Sprintf("%x", root[:]), ix.Len()
	return res, nil
}

// Rebuild makes a new list version from the sources' current versions and
// the community listings, without fetching anything: a community
// escalation takes effect at once, not at the next scheduled run.
func (p *Pipeline) Rebuild(ctx context.Context) (*screening.Index, error) {
	p.run.Lock()
	defer p.run.Unlock()
	return p.rebuild(ctx)
}

func (p *Pipeline) rebuild(ctx context.Context) (*screening.Index, error) {
	var all []screening.Listing
	if p.Community != nil {
		c, err := p.Community(ctx)
		if err != nil {
			return nil, fmt.Errorf("community listings: %w", err)
		}
		all = append(all, c...)
	}
	p.mu.Lock()
	for _, st := range p.state {
		all = append(all, st.Listings...)
	}
	p.version++
	v := p.version
	p.mu.Unlock()
	ix, err := screening.Build(v, p.Clock.Now(), all)
	if err != nil {
		return nil, err
	}
	p.Holder.Swap(ix)
	return ix, nil
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

// States returns a copy of every source's state.
func (p *Pipeline) States() map[string]SourceState {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make(map[string]SourceState, len(p.state))
	for k, v := range p.state {
		out[k] = SourceState{Snapshot: v.Snapshot, IngestAt: v.IngestAt, LastError: v.LastError, Listings: nil}
	}
	return out
}

// ingestOne fetches, snapshots, parses and normalises one source.
func (p *Pipeline) ingestOne(ctx context.Context, src Source) ([]screening.Listing, Snapshot, error) {
	client := p.Client
	if client == nil {
		client = &http.Client{Timeout: 5 * time.Minute}
	}
	var files []*fetched
	defer func() {
		for _, f := range files {
			os.Remove(f.path)
		}
	}()
	for _, loc := range strings.Split(src.Location, ",") {
		f, err := fetch(ctx, client, strings.TrimSpace(loc))
		if err != nil {
			return nil, Snapshot{}, err
		}
		files = append(files, f)
	}
	snap, err := p.snapshot(ctx, files[0])
	if err != nil {
		return nil, Snapshot{}, err
	}
	var listings []screening.Listing
	emit := func(r Record) error {
		if l, ok := toListing(src.Name, r); ok {
			listings = append(listings, l)
		}
		return nil
	}
	if err := parseSource(src.Name, files, emit); err != nil {
		return nil, Snapshot{}, err
	}
	sort.Slice(listings, func(i, j int) bool {
		if listings[i].Family != listings[j].Family {
			return listings[i].Family < listings[j].Family
		}
		return listings[i].Address < listings[j].Address
	})
	return listings, snap, nil
}

// snapshot stores the raw source in the blob store, content-addressed.
func (p *Pipeline) snapshot(ctx context.Context, f *fetched) (Snapshot, error) {
	name := "snapshots/" + f.sha256
	now := p.Clock.Now()
	if _, err := p.Blobs.Stat(ctx, name); err != nil {
		r, err := os.Open(f.path)
		if err != nil {
			return Snapshot{}, err
		}
		defer r.Close()
		if _, err := p.Blobs.Put(ctx, name, r, blob.PutOptions{ContentType: "application/octet-stream"}); err != nil {
			return Snapshot{}, fmt.Errorf("snapshot: %w", err)
		}
	}
	return Snapshot{BlobName: name, StorageURL: p.Blobs.URL(name), SHA256: f.sha256, FetchedAt: now}, nil
}
