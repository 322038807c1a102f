package media

import (
	"cmp"
	"context"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/cairn-dev/cairn"
)

// The blobs of failed uploads. A Put that fails may still have stored the
// object: an S3 server can store it and lose the connection before its
// answer reaches the client, which then sees an error and, if the server
// is still away, fails every retry. The upload is answered with an error
// and refunded, so its blob must go, like the blob of a Commit that failed.
// The blob's name is fresh for each upload, so deleting it removes nothing
// a record owns; the media record is still looked up first, and a blob
// whose record exists (a commit that happened although it reported an
// error) is kept.
//
// A delete the stores cannot do now (the blob store unreachable, as it
// usually is right after such a failure) is retried in the background,
// with backoff, until it succeeds or orphanRetryFor has passed; then it is
// given up with a warning, and the blob stays until its expiry, if it has
// one. The retries run on the system clock: they are about reaching a
// service, not about the records' times.

// Bounds of the retried deletes.
const (
	orphanQueueMax       = 10_000 // deletes waiting at once; more are given up at once
	orphanRetryFor       = 10 * time.Minute
	orphanFirstDelay     = time.Second
	orphanMaxDelay       = 30 * time.Second
	orphanAttemptTimeout = 30 * time.Second
)

// orphan is the blob of a failed upload that is waiting for its delete.
type orphan struct {
	agentID, id, name string
	since, next       time.Time
	delay             time.Duration
	err               error // of the last attempt
}

// orphans is the queue of the retried deletes and its one worker, started
// with the first delete that waits and stopped by Close. The zero value is
// ready for use.
type orphans struct {
	mu      sync.Mutex
	pending map[string]*orphan // by blob name
	closed  bool
	wake    chan struct{}
	cancel  context.CancelFunc // stops the worker (nil: not started)
	done    chan struct{}

	first, max, bound time.Duration // 0: the constants above (tests shorten them)
}

// logger returns the Service's logger, one that discards when none is set.
func (s *Service) logger() *slog.Logger {
	if s.Logger != nil {
		return s.Logger
	}
	return slog.New(slog.DiscardHandler)
}

// dropBlob deletes the blob name of the failed upload of media id: at
// once when now is set (the caller waits), and in the background when
// that is not set or fails.
func (s *Service) dropBlob(ctx context.Context, agentID, id, name string, now bool) {
	var err error
	if now {
		if err = s.deleteOrphan(context.WithoutCancel(ctx), agentID, id, name); err == nil {
			return
		}
	}
	s.queueOrphan(&orphan{agentID: agentID, id: id, name: name, err: err})
}

// deleteOrphan deletes the blob unless the media has a record.
func (s *Service) deleteOrphan(ctx context.Context, agentID, id, name string) error {
	_, err := s.Store.GetMedia(ctx, agentID, id)
	switch {
	case err == nil:
		return nil // the record owns the blob
	case !cairn.IsCode(err, cairn.ENOTFOUND):
		return err
	}
	return s.Blobs.Delete(ctx, name)
}

// queueOrphan adds o to the retried deletes, due at once unless an attempt
// just failed (o.err), and starts the worker if it is not running. After
// Close, or when the queue is full, o is given up.
func (s *Service) queueOrphan(o *orphan) {
	q := &s.orphans
	q.mu.Lock()
	defer q.mu.Unlock()
	switch {
	case q.closed:
		s.giveUp(o, "the media service is closed")
		return
	case len(q.pending) >= orphanQueueMax:
		s.giveUp(o, "too many deletes are waiting")
		return
	}
	now := time.Now()
	o.since, o.next, o.delay = now, now, q.firstDelay()
	if o.err != nil {
		q.backoff(o, now)
	}
	if q.pending == nil {
		q.pending = map[string]*orphan{}
		q.wake = make(chan struct{}, 1)
	}
	q.pending[o.name] = o
	if q.cancel == nil {
		var ctx context.Context
		ctx, q.cancel = context.WithCancel(context.Background())
		q.done = make(chan struct{})
		go s.runOrphans(ctx, q.wake, q.done)
	}
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// giveUp logs that the blob of o will not be deleted.
func (s *Service) giveUp(o *orphan, why string) {
	args := []any{"blob", o.name, "agent_id", o.agentID, "media_id", o.id, "why", why}
	if o.err != nil {
		args = append(args, "err", o.err)
	}
	s.logger().Warn("gave up deleting the blob of a failed media upload; it stays until its expiry, if it has one", args...)
}

// runOrphans retries the due deletes, and waits for the next one to be
// due, until ctx ends.
func (s *Service) runOrphans(ctx context.Context, wake <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		s.retryOrphans(ctx)
		timer.Reset(s.orphans.nextDue())
		select {
		case <-ctx.Done():
			return
		case <-wake:
		case <-timer.C:
		}
	}
}

// retryOrphans tries the due deletes, earliest first. The first that fails
// ends the round: the store is taken to be away, and each due delete not
// yet tried waits for its next turn as if it had failed too.
func (s *Service) retryOrphans(ctx context.Context) {
	q := &s.orphans
	q.mu.Lock()
	var due []*orphan
	now := time.Now()
	for _, o := range q.pending {
		if !o.next.After(now) {
			due = append(due, o)
		}
	}
	q.mu.Unlock()
	slices.SortFunc(due, func(a, b *orphan) int { return a.next.Compare(b.next) })
	var err error
	for i, o := range due {
		if ctx.Err() != nil {
			return
		}
		actx, cancel := context.WithTimeout(ctx, orphanAttemptTimeout)
		err = s.deleteOrphan(actx, o.agentID, o.id, o.name)
		cancel()
		if err != nil && ctx.Err() != nil {
			return // stopped: Close gives the pending deletes up
		}
		q.mu.Lock()
		if err == nil {
			delete(q.pending, o.name)
		} else {
			for _, o := range due[i:] {
				s.failed(o, err, time.Now())
			}
		}
		q.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// failed reschedules o after a failed attempt, or gives it up once the
// bound has passed. q.mu is held.
func (s *Service) failed(o *orphan, err error, now time.Time) {
	q := &s.orphans
	o.err = err
	if now.Sub(o.since) >= q.retryFor() {
		delete(q.pending, o.name)
		s.giveUp(o, "the blob store did not take the delete in time")
		return
	}
	q.backoff(o, now)
}

// backoff makes o due after its delay, and doubles the delay up to the
// longest.
func (q *orphans) backoff(o *orphan, now time.Time) {
	o.next, o.delay = now.Add(o.delay), min(2*o.delay, q.maxDelay())
}

// nextDue returns how long until the earliest pending delete is due (an
// hour when none is pending: a wake comes first).
func (q *orphans) nextDue() time.Duration {
	q.mu.Lock()
	defer q.mu.Unlock()
	d := time.Hour
	now := time.Now()
	for _, o := range q.pending {
		d = min(d, max(o.next.Sub(now), 0))
	}
	return d
}

// Close stops the retried deletes of failed uploads' blobs, giving up (with
// a warning each) those still waiting. After Close, the blob of a failed
// upload that cannot be deleted at once is given up.
func (s *Service) Close() {
	q := &s.orphans
	q.mu.Lock()
	q.closed = true
	cancel, done := q.cancel, q.done
	q.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, o := range q.pending {
		s.giveUp(o, "the media service is closing")
	}
	clear(q.pending)
}

func (q *orphans) firstDelay() time.Duration { return cmp.Or(q.first, orphanFirstDelay) }
func (q *orphans) maxDelay() time.Duration   { return cmp.Or(q.max, orphanMaxDelay) }
func (q *orphans) retryFor() time.Duration   { return cmp.Or(q.bound, orphanRetryFor) }
