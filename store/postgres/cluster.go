package postgres

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
)

// legacyListVersionChannel is the one channel of the list versions of
// every schema on a database, before each schema had its own.
const legacyListVersionChannel = "cairn_list_version"

// channelOf is the channel prefix names for schema: "<prefix>.<schema>"
// (prefix alone without a schema). PostgreSQL takes at most 63 bytes for
// a channel name (pg_notify rejects a longer one, LISTEN truncates it), so
// a schema name that does not fit is replaced by the hex of its 64-bit
// FNV-1a hash: the same name on every process, and one no other fitting
// schema name gives unless a schema is named that hex.
func channelOf(prefix, schema string) string {
	if schema == "" {
		return prefix
	}
	if ch := prefix + "." + schema; len(ch) <= 63 {
		return ch
	}
	h := fnv.New64a()
	h.Write([]byte(schema))
	return fmt.Sprintf("%s.%016x", prefix, h.Sum64())
}

// ListVersionChannel is the channel CommitListVersion notifies, at commit,
// with the new version number as the payload: "cairn_list_version.<schema>"
// (see channelOf), so that the processes of other schemas on the database
// do not hear it. A listener still compares the number with its own
// store's last version.
//
// Rolling upgrade: a process of the release before listens and notifies on
// "cairn_list_version" alone. This release notifies on both channels (once
// when they are the same, without a schema), so that an old process hears
// a new one at once, and listens on the schema's alone: a new process
// hears an old one's versions at its next --list-poll-interval poll. The
// release after drops the old channel.
func (db *DB) ListVersionChannel() string { return channelOf("cairn_list_version", db.schema) }

// listVersionChannels are the channels CommitListVersion notifies.
func (db *DB) listVersionChannels() []string {
	if ch := db.ListVersionChannel(); ch != legacyListVersionChannel {
		return []string{ch, legacyListVersionChannel}
	}
	return []string{legacyListVersionChannel}
}

// leaderKey is the session-level advisory lock whose holder leads the
// processes sharing schema.
func leaderKey(schema string) int64 {
	h := fnv.New64a()
	h.Write([]byte("cairn/leader/" + schema))
	return int64(h.Sum64())
}

// dedicated opens a connection outside the pool, with the pool's settings:
// a session-level lock or a LISTEN lives as long as its connection, which
// the pool must never hand to anyone else.
func (db *DB) dedicated(ctx context.Context) (*pgx.Conn, error) {
	return pgx.ConnectConfig(ctx, db.pool.Config().ConnConfig.Copy())
}

// LeaderLock is the advisory lock that makes one of the processes sharing
// a schema its leader. It is held by the session of a dedicated
// connection: when the holder dies, or its connection breaks, the server
// ends the session and the lock is free for the next TryAcquire.
type LeaderLock struct {
	db   *DB
	key  int64
	conn *pgx.Conn
}

// LeaderLock returns the leader lock of the store's schema, not held.
func (db *DB) LeaderLock() *LeaderLock {
	return &LeaderLock{db: db, key: leaderKey(db.schema)}
}

// TryAcquire tries the lock once, without waiting, and reports whether
// this process holds it. Held already, it checks that the connection
// still answers: an error means the lock is lost (the connection is
// closed, and the next TryAcquire reconnects).
func (l *LeaderLock) TryAcquire(ctx context.Context) (bool, error) {
	if l.conn != nil {
		if err := l.conn.Ping(ctx); err != nil {
			l.Release()
			return false, fmt.Errorf("postgres: leader connection lost: %w", err)
		}
		return true, nil
	}
	conn, err := l.db.dedicated(ctx)
	if err != nil {
		return false, fmt.Errorf("postgres: leader connection: %w", err)
	}
	var got bool
	if err := conn.QueryRow(ctx, "SELECT pg_try_advisory_lock($1)", l.key).Scan(&got); err != nil {
		conn.Close(context.Background())
		return false, fmt.Errorf("postgres: try the leader lock: %w", err)
	}
	if !got {
		return false, conn.Close(ctx)
	}
	l.conn = conn
	return true, nil
}

// tryWithin is TryAcquire bounded by d: a connection that stops answering
// (a network that drops packets) counts as lost instead of keeping a
// leader that the server may already have let go.
func (l *LeaderLock) tryWithin(ctx context.Context, d time.Duration) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	return l.TryAcquire(ctx)
}

// Release gives the lock up by closing its connection (nothing when it is
// not held).
func (l *LeaderLock) Release() {
	if l.conn != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = l.conn.Close(ctx)
		l.conn = nil
	}
}

// Lead runs lead while this process holds the leader lock, until ctx
// ends. Every retry interval a follower tries the lock and the leader
// checks its connection: a leader that dies is replaced within about one
// interval of the server noticing, and a leader whose connection fails
// cancels lead's context and waits for it to return before it tries
// again. Leadership changes are logged and reported to onChange (nil: not
// reported).
func (db *DB) Lead(ctx context.Context, retry time.Duration, logger *slog.Logger, onChange func(leading bool),
	lead func(ctx context.Context)) {
	l := db.LeaderLock()
	defer l.Release()
	var stop context.CancelFunc
	done := make(chan struct{})
	resign := func(why string, err error) {
		stop()
		<-done
		stop = nil
		logger.Warn("no longer the leader", "why", why, "err", err)
		if onChange != nil {
			onChange(false)
		}
	}
	t := time.NewTicker(retry)
	defer t.Stop()
	for {
		held, err := l.tryWithin(ctx, max(2*retry, 2*time.Second))
		switch {
		case stop != nil && !held && ctx.Err() == nil:
			resign("the leader connection failed", err)
		case stop == nil && held:
			logger.Info("leading: this instance runs the sweeps, scheduled ingestion and anchoring")
			if onChange != nil {
				onChange(true)
			}
			var lctx context.Context
			lctx, stop = context.WithCancel(ctx)
			done = make(chan struct{})
			go func() { defer close(done); lead(lctx) }()
		case err != nil && ctx.Err() == nil && !errors.Is(err, context.Canceled):
			logger.Warn("trying the leader lock failed", "err", err)
		}
		select {
		case <-ctx.Done():
			if stop != nil {
				stop()
				<-done
			}
			return
		case <-t.C:
		}
	}
}

// ListenListVersions calls fn with each list version number notified on
// ListVersionChannel, until ctx ends. It listens on a dedicated connection
// and reconnects every retry interval after a failure; fn is also called
// with 0 each time listening starts, so that the caller compares with the
// store for what it may have missed while not listening.
func (db *DB) ListenListVersions(ctx context.Context, retry time.Duration, logger *slog.Logger, fn func(version uint64)) {
	db.follow(ctx, db.ListVersionChannel(), "list versions", nil, retry, logger, func() { fn(0) }, func(payload string) {
		if v, err := strconv.ParseUint(payload, 10, 64); err == nil {
			fn(v)
		}
	})
}

// Listener is a LISTEN on one channel, held by a dedicated connection.
type Listener struct {
	conn *pgx.Conn
}

// Listen opens a dedicated connection that listens on channel: every
// notification committed from then on reaches Next, in commit order.
func (db *DB) Listen(ctx context.Context, channel string) (*Listener, error) {
	conn, err := db.dedicated(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{channel}.Sanitize()); err != nil {
		conn.Close(context.Background())
		return nil, err
	}
	return &Listener{conn: conn}, nil
}

// Next waits for the next notification and returns its payload. An error
// other than ctx's means the connection is lost: close the listener and
// listen again (notifications committed in between are missed).
func (l *Listener) Next(ctx context.Context) (string, error) {
	n, err := l.conn.WaitForNotification(ctx)
	if err != nil {
		return "", err
	}
	return n.Payload, nil
}

// Close ends the listening connection.
func (l *Listener) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = l.conn.Close(ctx)
}

// follow calls fn with each payload notified on channel until ctx ends,
// listening with l first (nil: none yet) and, after each failure, with a
// new listener every retry interval until one is up. started is called
// each time a new listener is up (not for l), before its notifications:
// the caller catches up there on what it missed while not listening.
func (db *DB) follow(ctx context.Context, channel, what string, l *Listener, retry time.Duration, logger *slog.Logger,
	started func(), fn func(payload string)) {
	for ctx.Err() == nil {
		err := func() error {
			if l == nil {
				var err error
				if l, err = db.Listen(ctx, channel); err != nil {
					return err
				}
				started()
			}
			defer func() { l.Close(); l = nil }()
			for {
				p, err := l.Next(ctx)
				if err != nil {
					return err
				}
				fn(p)
			}
		}()
		if ctx.Err() != nil {
			return
		}
		logger.Warn("listening for "+what+" failed; retrying", "err", err, "retry", retry.String())
		select {
		case <-ctx.Done():
			return
		case <-time.After(retry):
		}
	}
	if l != nil {
		l.Close()
	}
}
