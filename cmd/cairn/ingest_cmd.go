package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/compliance"
	"github.com/cairn-dev/cairn/ingest"
	"github.com/cairn-dev/cairn/screening"
	"github.com/cairn-dev/cairn/store"
	"github.com/cairn-dev/cairn/store/pebble"
	"github.com/cairn-dev/cairn/store/postgres"
)

// errSourcesFailed makes `cairn ingest` exit 1 when a source kept its
// previous version; the new list version is stored all the same.
var errSourcesFailed = errors.New("some sources kept their previous version")

// runIngest is `cairn ingest`: one ingestion of the sources into the data
// dir's store (or, with --store postgres://..., the Postgres store) and blob
// store (the data dir's, or the bucket of --blob s3), as the server does at start, with a line of progress per source.
// On the embedded store the server must be stopped (the store is locked
// while it runs); at its next start it restores the version made here.
// Servers running on the same Postgres store install it within seconds,
// notified of its commit.
func runIngest(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	cfg := DefaultConfig()
	fs := flag.NewFlagSet("cairn ingest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addStoreFlags(fs, &cfg)
	addSourceFlags(fs, &cfg)
	addBlobFlags(fs, &cfg)
	var exportTo, exportFrom string
	fs.StringVar(&exportTo, "export-snapshot", "", "write the bundled snapshot file (a file, or a directory such as ingest/snapshot) from --from instead of ingesting")
	fs.StringVar(&exportFrom, "from", "", "with --export-snapshot: SDN_ADVANCED.XML to extract (file, .bz2 file or http(s) URL)")
	if err := parseWithEnv(fs, args, getenv); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		fmt.Fprintln(stderr, err)
		return errUsage
	}
	if exportTo != "" || exportFrom != "" {
		if exportTo == "" || exportFrom == "" || len(cfg.Sources) > 0 {
			fmt.Fprintln(stderr, "--export-snapshot OUT takes --from SDN_ADVANCED.XML and no --source")
			return errUsage
		}
		return exportSnapshot(ctx, exportTo, exportFrom, stdout)
	}
	if len(cfg.Sources) == 0 {
		fmt.Fprintln(stderr, "at least one --source NAME=PATH_OR_URL is required")
		return errUsage
	}
	if err := checkMaxDrop(cfg.IngestMaxDrop); err != nil {
		return err
	}
	sources, err := configuredSources(cfg.IngestConfig, nil)
	if err != nil {
		return err
	}
	if err := resolveStore(&cfg); err != nil {
		return err
	}
	db, err := openListStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	blobs, err := openBlobs(ctx, cfg, cairn.SystemClock{})
	if err != nil {
		return fmt.Errorf("open blob store: %w", err)
	}
	logger, err := newLogger(io.Discard, "error", "text")
	if err != nil {
		return err
	}
	p := &ingest.Pipeline{Sources: sources, Blobs: blobs, Store: db, Holder: &screening.Holder{}, Clock: cairn.SystemClock{},
		Logger: logger, MaxDrop: cfg.IngestMaxDrop, Community: compliance.CommunityListings(db)}
	p.OnProgress = func(pr ingest.Progress) {
		if pr.Err != nil {
			fmt.Fprintf(stdout, "%-24s FAILED after %s, kept the previous %d entries: %v\n", pr.Source, pr.Took.Round(time.Millisecond), pr.Entries, pr.Err)
			return
		}
		fmt.Fprintf(stdout, "%-24s %8d entries in %s\n", pr.Source, pr.Entries, pr.Took.Round(time.Millisecond))
	}
	restored, err := p.Restore(ctx)
	if err != nil {
		return err
	}
	if restored {
		fmt.Fprintf(stdout, "previous list version %d restored\n", p.Holder.Current().Version)
	}
	res, err := p.Run(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "list version %d: root %s, %d addresses, %d entries added, %d removed\n",
		res.Version, res.Root, res.Leaves, res.Added, res.Removed)
	if len(res.Failures) > 0 {
		return errSourcesFailed
	}
	return nil
}

// openListStore opens the store that holds the server's list versions:
// the data dir's embedded store, or Postgres when --store is a
// postgres:// URL.
func openListStore(ctx context.Context, cfg Config) (store.Store, error) {
	switch u := cfg.Store; {
	case u == "" || u == "pebble":
		db, err := pebble.Open(filepath.Join(cfg.DataDir, "store"), pebble.Options{})
		if err != nil {
			return nil, fmt.Errorf("open store (is the server running?): %w", err)
		}
		return db, nil
	case isPostgresURL(u):
		db, err := postgres.Open(ctx, u, postgres.Options{Schema: cfg.PostgresSchema})
		if err != nil {
			return nil, fmt.Errorf("open postgres store: %w", err)
		}
		return db, nil
	}
	return nil, errors.New("--store must be pebble or a postgres:// URL")
}
