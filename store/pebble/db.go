package pebble

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"log"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// Options configures Open.
type Options struct {
	// Clock stamps records whose time the caller left zero (nil: the
	// system clock).
	Clock cairn.Clock
	// InMemory keeps the whole database in memory; the directory is
	// ignored and nothing survives Close. For tests and benchmarks.
	InMemory bool
	// CacheSize is the block cache size in bytes (0: 64 MiB).
	CacheSize int64
	// Logger receives pebble's messages (nil: errors go to the standard
	// logger, informational messages are dropped).
	Logger pebble.Logger

	// ChargeFlush is the longest an accepted charge waits in memory before
	// it is written with the others (charges.go): 0 means
	// DefaultChargeFlush, a negative value writes every charge at once.
	ChargeFlush time.Duration

	fs vfs.FS // the file system, set by tests that simulate a crash
}

const defaultCacheSize = 64 << 20

// DB is a store.Store on one pebble database. It is safe for concurrent use.
type DB struct {
	db     *pebble.DB
	clock  cairn.Clock
	closed atomic.Bool

	seed    maphash.Seed
	devs    stripes      // ledger read-modify-write, per developer
	charges chargeBuffer // charges accepted, not yet in pebble (charges.go)
	agts    stripes      // agent updates, per agent
	uniqs   stripes      // ledger unique keys
	frees   stripes      // free screening windows, per developer
	rates   stripes      // stored rate limit counters, per key
	proofs  stripes      // screening proofs, per id
	syncs   *syncStats   // synced commits' waits, write stalls (syncstats.go)

	hookMu       sync.Mutex // webhook deliveries and their queue (webhooks.go)
	screenMu     sync.Mutex // the screening counter (screenings.go)
	screenCount  int64
	screenLoaded bool
	idem         stripes // idempotency records, per agent, route and key
	// idx guards the global unique indexes written at creation time: agent
	// ids, key hashes, developer creation by CreateAccount and deposit
	// indexes. Creation is rare; the hot paths never take it.
	idx sync.Mutex
	// settingMu serializes the writes of settings (settings.go), so that
	// a read-modify-write of one sees every write before it.
	settingMu sync.Mutex
	// anchorMu serializes the anchor records' check-and-write (anchors.go).
	anchorMu sync.Mutex
	// reportStatsMu serializes the report statistics' read-modify-write
	// (reports_stats.go); taken after a report stripe, never before.
	reportStatsMu sync.Mutex
}

var _ store.Store = (*DB)(nil)

// Open opens (creating when needed) the database in dir.
func Open(dir string, opts Options) (*DB, error) {
	po := &pebble.Options{FormatMajorVersion: pebble.FormatNewest, Logger: opts.Logger}
	if po.Logger == nil {
		po.Logger = quietLogger{}
	}
	for i := range po.Levels {
		// Point reads (agents by key hash, developers) skip the files
		// that cannot hold the key.
		po.Levels[i].FilterPolicy = bloom.FilterPolicy(10)
	}
	if opts.fs != nil {
		po.FS = opts.fs
	} else if opts.InMemory {
		po.FS = vfs.NewMem()
		dir = ""
	} else if dir == "" {
		return nil, errors.New("pebble: empty data directory")
	}
	separateProofValues(po)
	syncs := &syncStats{}
	syncs.listen(po)
	po.MemTableSize = memTableSize
	size := opts.CacheSize
	if size <= 0 {
		size = defaultCacheSize
	}
	cache := pebble.NewCache(size)
	defer cache.Unref() // the DB holds its own reference
	po.Cache = cache
	pdb, err := pebble.Open(dir, po)
	if err != nil {
		return nil, fmt.Errorf("pebble: open %q: %w", dir, err)
	}
	clock := opts.Clock
	if clock == nil {
		clock = cairn.SystemClock{}
	}
	db := &DB{db: pdb, clock: clock, seed: maphash.MakeSeed(), syncs: syncs}
	flush := opts.ChargeFlush
	if flush == 0 {
		flush = DefaultChargeFlush
	}
	db.initCharges(flush)
	return db, nil
}

// Proof records (proofs.go) are written once, never changed and rarely
// read, and they are most of what the screening load writes (tens of KB
// each). In the sstables, compactions would rewrite each of them once per
// level on the way down; separated into blob files, a record is written
// once at the flush and compactions move its key and a handle. Only the
// proofs keyspace is separated: everything else keeps its values inline,
// where point reads find them without a second file.
const (
	// proofValueMin is the smallest proof value that goes to a blob file.
	proofValueMin = 1024
	// proofBlobDepth is how many overlapping blob files a table may
	// reference before a compaction writes its values into new ones. Proof
	// ids are random, so every blob file spans the whole keyspace and the
	// depth grows by one per flush below: a high bound keeps the rewrites
	// rare, at no cost to a point read (one handle, one blob file).
	proofBlobDepth = 256
)

// memTableSize is the size of a memtable (Pebble's default is 4 MiB).
// Under the screening load the proofs fill 4 MiB many times a second, and
// each flush creates an sstable per keyspace region, a blob file and, as
// L0 fills, compactions with files of their own; at 16 MiB the flushes
// are a quarter as many, for about 17 MB more memory (BENCHMARKS.md,
// "HTTP screening").
const memTableSize = 16 << 20

// separateProofValues sets po to keep the values of the proofs keyspace
// in blob files.
func separateProofValues(po *pebble.Options) {
	po.Experimental.ValueSeparationPolicy = func() pebble.ValueSeparationPolicy {
		return pebble.ValueSeparationPolicy{Enabled: true, MinimumSize: proofValueMin, MaxBlobReferenceDepth: proofBlobDepth,
			// Proofs are never overwritten or deleted: no garbage to collect.
			RewriteMinimumAge: time.Hour, TargetGarbageRatio: 1}
	}
	lo := []byte(prefixProof)
	hi := prefixEnd(lo)
	inline := pebble.SpanPolicy{ValueStoragePolicy: pebble.ValueStorageLowReadLatency}
	po.Experimental.SpanPolicyFunc = func(start []byte) (pebble.SpanPolicy, []byte, error) {
		switch {
		case bytes.Compare(start, lo) < 0:
			return inline, lo, nil
		case bytes.Compare(start, hi) < 0:
			return pebble.SpanPolicy{}, hi, nil
		default:
			return inline, nil, nil
		}
	}
}

// Pebble returns the underlying database, for the packages that keep their
// own records beside these (see the prefix rule in keys.go) and for tools.
func (db *DB) Pebble() *pebble.DB { return db.db }

// Ping reports whether the database is open and readable.
func (db *DB) Ping(ctx context.Context) error {
	if err := db.usable(ctx); err != nil {
		return err
	}
	_, err := db.has(keyDepositNext)
	return err
}

// usable is EUNAVAILABLE once the DB is closed (instead of pebble's
// panic), else ctx's error.
func (db *DB) usable(ctx context.Context) error {
	if db.closed.Load() {
		return cairn.Errorf(cairn.EUNAVAILABLE, "The store is closed.")
	}
	return ctx.Err()
}

// Close flushes the memtables to disk and closes the database. Closing a
// closed DB does nothing.
func (db *DB) Close() error {
	if !db.closed.CompareAndSwap(false, true) {
		return nil // already closed
	}
	cerr := db.closeCharges()
	ferr := db.db.Flush()
	if err := db.db.Close(); err != nil {
		return fmt.Errorf("pebble: close: %w", err)
	}
	if cerr != nil {
		return cerr
	}
	if ferr != nil {
		return fmt.Errorf("pebble: flush: %w", ferr)
	}
	return nil
}

// quietLogger drops pebble's informational messages and keeps the rest.
type quietLogger struct{}

func (quietLogger) Infof(string, ...any) {}

func (quietLogger) Errorf(format string, args ...any) {
	log.Printf("pebble: "+format, args...)
}

func (quietLogger) Fatalf(format string, args ...any) {
	log.Fatalf("pebble: "+format, args...)
}
