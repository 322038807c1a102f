package billing

import (
	"context"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/cairn-dev/cairn"
)

// Refundable reports whether a response status gives back the credits a
// request paid (spec 7): 5xx, 400, 413 and 422 do; 404, 409, 412 and 429 do not.
// A 415 (wrong Content-Type) is a malformed request like a 400, and a 416
// delivers nothing the client could use: both are refunded too.
func Refundable(status int) bool {
	switch {
	case status >= 500:
		return true
	case status == http.StatusBadRequest, status == http.StatusRequestEntityTooLarge, status == http.StatusUnprocessableEntity,
		status == http.StatusUnsupportedMediaType, status == http.StatusRequestedRangeNotSatisfiable:
		return true
	}
	return false
}

// Biller opens the bills of priced requests and knows which are still
// running: the checkpoint of start-up recovery (see Recovery).
type Biller struct {
	Ledger  *Ledger
	Pricing *Pricing
	// Settled receives the marks of priced writes whose charges stand
	// although the request failed (nil: none are kept).
	Settled SettledMarks
	// StatusOf maps an error to the status its response carries: the
	// front end's table, which spec 7's refunds are stated in.
	StatusOf func(error) int
	Clock    cairn.Clock
	Logger   *slog.Logger

	running running

	stop      chan struct{} // closed by Stop
	stopOnce  sync.Once
	closeOnce sync.Once
	retries   sync.WaitGroup
}

// SettledMarks records that charges stand although their request logged
// no effect (store.Settled holds them for Recovery).
type SettledMarks interface {
	MarkSettled(ctx context.Context, chargeIDs []string, at time.Time) error
}

// Bill is the billing of one request: the charges taken for it so far,
// settled once by the status of its response.
type Bill struct {
	b                               *Biller
	developerID, agentID, requestID string
	charges                         []*cairn.LedgerEntry
	// unrefunded are the charges of failed bulk items whose refund the
	// unreachable store could not take yet: Settle retries them.
	unrefunded []*cairn.LedgerEntry
	end        func()
}

// Open starts the bill of a request paid by developerID (agentID: the agent
// acting, or ""). The request counts as running until Settle.
func (b *Biller) Open(developerID, agentID, requestID string) *Bill {
	return &Bill{b: b, developerID: developerID, agentID: agentID, requestID: requestID,
		end: b.running.begin(b.Clock.Now())}
}

// SettledBefore returns the time before which every priced request has
// ended (now when none is running): a checkpoint for Recovery. Every charge
// is taken after its request started, so the charges of requests still
// running at a crash are all at or after the last checkpoint.
func (b *Biller) SettledBefore() time.Time { return b.running.since(b.Clock.Now()) }

// Charge takes op's live cost now, before the effect it pays for; EPAYMENT
// when the balance does not cover it. A free operation takes nothing.
func (bl *Bill) Charge(ctx context.Context, op string) error {
	return bl.ChargeAmount(ctx, op, bl.b.Pricing.Cost(op))
}

// ChargeAmount takes amount credits for op (a variable cost, such as per
// billable address).
func (bl *Bill) ChargeAmount(ctx context.Context, op string, amount int64) error {
	if amount <= 0 {
		return nil
	}
	e, err := bl.b.Ledger.Charge(ctx, bl.developerID, bl.agentID, op, amount, bl.requestID)
	if err != nil {
		return err
	}
	bl.charges = append(bl.charges, e)
	return nil
}

// Charged is what the bill has taken so far, in credits.
func (bl *Bill) Charged() int64 {
	var n int64
	for _, e := range bl.charges {
		n -= e.Amount
	}
	return n
}

// Item runs one item of a bulk request and bills it as spec 7 bills a
// request of its own: op's live cost is charged before fn runs, given back
// at once when fn fails with a refundable status (400, 413, 422, 5xx...),
// and kept and marked settled when it fails with 404 or 409. The request
// then pays only for what it was allowed to try.
func (bl *Bill) Item(ctx context.Context, op string, fn func() error) error {
	n := len(bl.charges)
	if err := bl.Charge(ctx, op); err != nil {
		return err
	}
	err := fn()
	if err == nil || len(bl.charges) == n {
		return err
	}
	item := bl.charges[n:]
	ctx = context.WithoutCancel(ctx)
	if !Refundable(bl.b.StatusOf(err)) {
		bl.markSettled(ctx, item)
		return err
	}
	bl.charges = bl.charges[:n]
	bl.unrefunded = append(bl.unrefunded, bl.refund(ctx, item)...)
	return err
}

// Settle closes the bill by the status of the response: a refundable one
// gives back every charge; one that keeps the charges of a failed priced
// write (404, 409) marks them settled, since no audit entry shows that the
// request ran and recovery must not take them for charges of a request a
// crash cut short. It runs after the response is written, when the client
// may have hung up: the bookkeeping does not end with ctx. What the store
// cannot take now because it is unreachable (EUNAVAILABLE: a restart of
// PostgreSQL) is retried in the background until it can; the request
// counts as running until then, so that a crash meanwhile leaves its
// charges to start-up recovery.
func (bl *Bill) Settle(ctx context.Context, status int) {
	ctx = context.WithoutCancel(ctx)
	refunds, marks := bl.unrefunded, []*cairn.LedgerEntry(nil)
	switch {
	case Refundable(status):
		refunds = append(refunds, bl.charges...)
	case status < 200 || status >= 300:
		marks = bl.charges
	}
	bl.charges, bl.unrefunded = nil, nil
	step := func(ctx context.Context) bool {
		refunds = bl.refund(ctx, refunds)
		if len(marks) > 0 && bl.markSettled(ctx, marks) {
			marks = nil
		}
		return len(refunds) == 0 && len(marks) == 0
	}
	if step(ctx) {
		bl.end()
		return
	}
	bl.b.retry(ctx, bl.requestID, step, bl.end)
}

// refund gives back each charge and returns those the store could not
// take because it is unreachable, to be retried; other failures are
// logged.
func (bl *Bill) refund(ctx context.Context, charges []*cairn.LedgerEntry) (unreachable []*cairn.LedgerEntry) {
	for _, ch := range charges {
		if _, err := bl.b.Ledger.Refund(ctx, ch, 0, bl.requestID); cairn.IsCode(err, cairn.EUNAVAILABLE) {
			unreachable = append(unreachable, ch)
		} else if err != nil {
			bl.b.Logger.ErrorContext(ctx, "refund failed", "charge_id", ch.ID, "op", ch.Operation, "err", err)
		}
	}
	return unreachable
}

// markSettled marks the charges of recoverable writes among charges as
// standing. It returns false when the store is unreachable, to be retried;
// other failures are logged.
func (bl *Bill) markSettled(ctx context.Context, charges []*cairn.LedgerEntry) bool {
	if bl.b.Settled == nil {
		return true
	}
	var ids []string
	for _, ch := range charges {
		if slices.Contains(RecoverableOps, ch.Operation) {
			ids = append(ids, ch.ID)
		}
	}
	if len(ids) == 0 {
		return true
	}
	if err := bl.b.Settled.MarkSettled(ctx, ids, bl.b.Clock.Now()); cairn.IsCode(err, cairn.EUNAVAILABLE) {
		return false
	} else if err != nil {
		bl.b.Logger.ErrorContext(ctx, "settled mark failed", "err", err)
	}
	return true
}

// Retry delays: from the first to the longest, doubling.
const (
	retryFirst = 100 * time.Millisecond
	retryMost  = 5 * time.Second
)

// retry runs step in the background, after growing delays, until it
// reports done, then calls end; until Stop, after which the request stays
// open for start-up recovery.
func (b *Biller) retry(ctx context.Context, requestID string, step func(context.Context) bool, end func()) {
	b.Logger.WarnContext(ctx, "the store is unreachable: the request's refunds are retried until it is back", "request_id", requestID)
	stop := b.stopped()
	b.retries.Go(func() {
		for delay := retryFirst; ; delay = min(2*delay, retryMost) {
			select {
			case <-stop:
				return
			case <-time.After(delay):
			}
			if step(ctx) {
				end()
				b.Logger.InfoContext(ctx, "the store is back: the request's refunds are stored", "request_id", requestID)
				return
			}
		}
	})
}

// stopped is closed by Stop.
func (b *Biller) stopped() <-chan struct{} {
	b.stopOnce.Do(func() { b.stop = make(chan struct{}) })
	return b.stop
}

// Stop ends the retries of refunds and settled marks the store could not
// take, and waits for them: their requests stay open, so that the
// checkpoint stays before them and start-up recovery refunds their
// charges. Call it once the server takes no more requests.
func (b *Biller) Stop() {
	b.stopped()
	b.closeOnce.Do(func() { close(b.stop) })
	b.retries.Wait()
}

// running is the set of priced requests in progress, by start time.
type running struct {
	mu   sync.Mutex
	next uint64
	m    map[uint64]time.Time
}

// begin records a request started at t and returns the function that
// records its end (idempotent).
func (r *running) begin(t time.Time) func() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil {
		r.m = map[uint64]time.Time{}
	}
	r.next++
	id := r.next
	r.m[id] = t
	return func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		delete(r.m, id)
	}
}

// since returns the start of the oldest request in progress, or now.
func (r *running) since(now time.Time) time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, t := range r.m {
		if t.Before(now) {
			now = t
		}
	}
	return now
}
