package postgres

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Options configures Open.
type Options struct {
	// Clock stamps records whose time the caller left zero (nil: the
	// system clock).
	Clock cairn.Clock
	// Schema is the schema that holds cairn's tables; it becomes the
	// connections' search_path and is created when absent. "" keeps the
	// search_path of the URL (by default "public").
	Schema string
	// MaxConns caps the pool (0: pool_max_conns in the URL, else
	// DefaultMaxConns).
	MaxConns int32
	// ChargeFlush is the longest a charge's commit goes without a flush
	// of the WAL (charges.go): 0 means DefaultChargeFlush, a negative
	// value that every charge waits for its own.
	ChargeFlush time.Duration
	// ChargeDefer is the longest a charge accepted without the database
	// waits to be applied with its account's others (deferred_charges.go):
	// 0 means DefaultChargeDefer, a negative value that every charge is
	// applied at once.
	ChargeDefer time.Duration
	// Logger receives the warnings of deferred charges (nil:
	// slog.Default()).
	Logger *slog.Logger
}

// DefaultMaxConns is the least size of the pool unless the URL or
// Options set one. A request mostly waits on the database (its round
// trips, a commit's WAL flush) rather than using a CPU, so the pool is not
// sized by the cores as pgxpool's default (4 on 2 cores) is: with 16,
// concurrent requests reach the database together, and their commits
// share WAL flushes.
const DefaultMaxConns = 16

// DB is a store.Store on a PostgreSQL database. It is safe for concurrent
// use.
type DB struct {
	pool   *pgxpool.Pool
	clock  cairn.Clock
	schema string // Options.Schema: the scope of the leader lock
	id     string // names this DB's memory change notifications
	closed atomic.Bool
	trgm   atomic.Int32 // memory_search.go: 0 not known yet, 1 no trigram index, 2 one

	charges  chargeFlusher   // charges.go
	deferred deferredCharges // deferred_charges.go
	notes    noteQueue       // memory_feed.go
}

var _ store.Store = (*DB)(nil)

// Open connects to the database at url (a postgres:// URL or a key=value
// DSN), creates the schema when needed and applies the migrations this
// binary embeds that the database lacks.
func Open(ctx context.Context, url string, opts Options) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: parse url: %w", err)
	}
	if opts.Schema != "" {
		cfg.ConnConfig.RuntimeParams["search_path"] = pgx.Identifier{opts.Schema}.Sanitize()
	}
	switch {
	case opts.MaxConns > 0:
		cfg.MaxConns = opts.MaxConns
	case !strings.Contains(url, "pool_max_conns"):
		cfg.MaxConns = max(cfg.MaxConns, DefaultMaxConns)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: connect: %w", err)
	}
	if err := migrate(ctx, pool, opts.Schema); err != nil {
		pool.Close()
		return nil, err
	}
	clock := opts.Clock
	if clock == nil {
		clock = cairn.SystemClock{}
	}
	db := &DB{pool: pool, clock: clock, schema: opts.Schema, id: cairn.NewID()}
	db.charges.interval = cmp.Or(opts.ChargeFlush, DefaultChargeFlush)
	db.deferred.init(cmp.Or(opts.ChargeDefer, DefaultChargeDefer), opts.Logger)
	return db, nil
}

// Pool returns the connection pool, for the packages that keep their own
// tables beside these and for tools.
func (db *DB) Pool() *pgxpool.Pool { return db.pool }

// Ping reports whether the database answers.
func (db *DB) Ping(ctx context.Context) error {
	if db.closed.Load() {
		return cairn.Errorf(cairn.EUNAVAILABLE, "The store is closed.")
	}
	if err := db.pool.Ping(ctx); err != nil {
		return fmt.Errorf("%w (%v)", cairn.Errorf(cairn.EUNAVAILABLE, "The store is unreachable."), err)
	}
	return nil
}

// Close closes every connection of the pool, waiting for the ones in use.
// Closing a closed DB does nothing.
func (db *DB) Close() error {
	if db.closed.CompareAndSwap(false, true) {
		db.closeDeferred()
		db.closeCharges()
		db.pool.Close()
	}
	return nil
}

// now returns the clock's time as stored: timestamptz keeps microseconds.
func (db *DB) now() time.Time { return dbTime(db.clock.Now()) }

// dbTime returns t in UTC truncated to what timestamptz keeps.
func dbTime(t time.Time) time.Time { return t.Truncate(time.Microsecond).UTC() }

// nullTime is the parameter for an optional time: NULL when zero.
func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t
}

// nullBytes is the parameter for optional bytes: NULL when empty.
func nullBytes(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return b
}

// inTx runs fn in a transaction, committed when fn returns nil and rolled
// back otherwise.
func (db *DB) inTx(ctx context.Context, fn func(pgx.Tx) error) error {
	tx, err := db.pool.Begin(ctx)
	if err != nil {
		return mapErr(err, "begin")
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) // no-op after Commit
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return mapErr(err, "commit")
	}
	return nil
}

// conflicts maps the unique constraints to the message of their ECONFLICT.
var conflicts = map[string]string{
	"developers_pkey":          "Developer account already exists.",
	"agents_pkey":              "Agent id already exists.",
	"agents_key_hash_key":      "API key already in use.",
	"agents_deposit_index_key": "Deposit index already in use.",
	"ledger_unique_key_key":    "This ledger entry was already recorded.",
	"audit_pkey":               "Audit entry already exists.",
	"media_pkey":               "Media already exists.",
	"list_versions_pkey":       "This list version was already committed.",
	"reports_reporter_key":     "This account already reported this address.",
	"reports_pkey":             "Report id already exists.",
	"memories_pkey":            "Memory id already exists.",
	"memory_versions_pkey":     "Version id already exists.",
}

// violates reports whether err is a unique violation of the constraint.
func violates(err error, constraint string) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505" && pe.ConstraintName == constraint
}

// notFound is mapErr where no row (pgx.ErrNoRows) is nf.
func notFound(err, nf error, what string) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return nf
	}
	return mapErr(err, what)
}

// validText reports whether every s can be a text value: PostgreSQL text
// holds valid UTF-8 without NUL bytes. A lookup by a string that cannot be
// stored finds nothing, without asking the server.
func validText(ss ...string) bool {
	for _, s := range ss {
		if !utf8.ValidString(s) || strings.IndexByte(s, 0) >= 0 {
			return false
		}
	}
	return true
}

// IsUnavailable tells an error of a server that cannot be reached or
// is going away (refused or cut connections, a server shutting down,
// starting up or in recovery) from a refusal of the statement: the same
// statement may succeed in a moment.
func IsUnavailable(err error) bool {
	if err == nil {
		return false
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		// 08: connection exception; 57P01-57P03: admin or crash shutdown,
		// cannot connect now; 53300: too many connections.
		return strings.HasPrefix(pe.Code, "08") || pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03" || pe.Code == "53300"
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	return errors.As(err, &ce) || errors.As(err, &ne) || pgconn.SafeToRetry(err) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.EPIPE) || strings.Contains(err.Error(), "conn closed")
}

// unreachable is the error of a statement the server did not answer:
// EUNAVAILABLE (503, retry shortly), the cause kept for the log.
func unreachable(err error, what string) error {
	return fmt.Errorf("%w (postgres: %s: %v)", cairn.Errorf(cairn.EUNAVAILABLE, "The store is unreachable for a moment; retry shortly."), what, err)
}

// mapErr turns a unique violation into ECONFLICT and an out-of-range
// number into EINVALID, and returns a *cairn.Error or nil unchanged; any
// other error is wrapped as internal with what was being done.
func mapErr(err error, what string) error {
	if err == nil {
		return nil
	}
	if IsUnavailable(err) {
		return unreachable(err, what)
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "23505": // unique_violation
			if msg, ok := conflicts[pe.ConstraintName]; ok {
				return cairn.Errorf(cairn.ECONFLICT, "%s", msg)
			}
			return cairn.Errorf(cairn.ECONFLICT, "Already exists.")
		case "22003": // numeric_value_out_of_range
			return cairn.Errorf(cairn.EINVALID, "Ledger amount out of range.")
		case "22021", "22P05": // character_not_in_repertoire, untranslatable_character
			return cairn.Errorf(cairn.EINVALID, "Text with a NUL byte or invalid UTF-8.")
		}
	}
	var ce *cairn.Error
	if errors.As(err, &ce) {
		return err
	}
	return fmt.Errorf("postgres: %s: %w", what, err)
}
