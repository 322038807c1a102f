package api

import (
	"context"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/billing"
	"github.com/gin-gonic/gin"
)

const billKey = "cairn.bill"

// bill is the billing state of one request: the charges taken so far. The
// paid middleware settles it when the handler is done.
type bill struct {
	s       *Server
	p       *principal
	charges []*cairn.LedgerEntry
}

// charge takes amount credits for op now, before the effect.
func (b *bill) charge(c *gin.Context, op string, amount int64) error {
	if amount <= 0 {
		return nil
	}
	agentID := ""
	if b.p.Agent != nil {
		agentID = b.p.Agent.ID
	}
	e, err := b.s.Ledger.Charge(c.Request.Context(), b.p.DeveloperID, agentID, op, amount, requestID(c))
	if err != nil {
		return err
	}
	b.charges = append(b.charges, e)
	return nil
}

// refundable reports whether a response status returns the credits paid
// for the request (spec 7: 5xx, 400, 413, 422; not 404, 409, 429). A 415
// (wrong Content-Type) is a malformed request like a 400, and a 416
// delivers nothing the client could use: both are refunded too.
func refundable(status int) bool {
	switch {
	case status >= 500:
		return true
	case status == http.StatusBadRequest, status == http.StatusRequestEntityTooLarge, status == http.StatusUnprocessableEntity,
		status == http.StatusUnsupportedMediaType, status == http.StatusRequestedRangeNotSatisfiable:
		return true
	}
	return false
}

// settle refunds every charge of the request when its status says so.
// When the charges of a priced write stand although the request failed (a
// 404 or 409), it marks them settled: no audit entry shows that the
// request ran, and start-up recovery must not take them for charges of a
// request a crash cut short (see billing.Recovery).
//
// It runs after the response is written: the client may have hung up and
// the request's context ended, so the bookkeeping uses a context that is
// not cancelled with it.
func (b *bill) settle(c *gin.Context) {
	ctx := context.WithoutCancel(c.Request.Context())
	status := c.Writer.Status()
	if !refundable(status) {
		if status >= 200 && status < 300 || b.s.Settled == nil {
			return
		}
		b.markSettled(ctx, b.charges)
		return
	}
	for _, ch := range b.charges {
		if _, err := b.s.Ledger.Refund(ctx, ch, 0, requestID(c)); err != nil {
			b.s.Logger.ErrorContext(ctx, "refund failed", "charge_id", ch.ID, "err", err)
		}
	}
}

// markSettled marks the charges of priced writes among charges as
// standing (see settle).
func (b *bill) markSettled(ctx context.Context, charges []*cairn.LedgerEntry) {
	if b.s.Settled == nil {
		return
	}
	var ids []string
	for _, ch := range charges {
		if slices.Contains(billing.RecoverableOps, ch.Operation) {
			ids = append(ids, ch.ID)
		}
	}
	if len(ids) == 0 {
		return
	}
	if err := b.s.Settled.MarkSettled(ctx, ids, b.s.Clock.Now()); err != nil {
		b.s.Logger.ErrorContext(ctx, "settled mark failed", "err", err)
	}
}

// paid is the one billing mechanism: it charges the live cost of op before
// the handler runs (402 when short) and refunds it afterwards when the
// response status is refundable. Handlers with a variable cost call
// chargeMore on the same bill.
func (s *Server) paid(op string) gin.HandlerFunc {
	return func(c *gin.Context) {
		defer s.priced.begin(s.Clock.Now())()
		b := &bill{s: s, p: principalOf(c)}
		c.Set(billKey, b)
		if err := b.charge(c, op, s.Pricing.Cost(op)); err != nil {
			writeError(c, err)
			return
		}
		c.Next()
		b.settle(c)
	}
}

// chargeMore takes a further amount within a paid request (for example per
// billable address); it is refunded with the rest on a refundable status.
func chargeMore(c *gin.Context, op string, amount int64) error {
	v, ok := c.Get(billKey)
	if !ok {
		return cairn.Errorf(cairn.EINTERNAL, "api: chargeMore outside a paid route")
	}
	return v.(*bill).charge(c, op, amount)
}

// billed opens a bill without an upfront charge, for handlers that charge
// per item (bulk requests): each item is charged with chargeMore before it
// runs and given back with refundLast when it fails, so that the request
// pays only for the items that succeeded. A refundable status still
// returns everything left on the bill.
func (s *Server) billed() gin.HandlerFunc {
	return func(c *gin.Context) {
		defer s.priced.begin(s.Clock.Now())()
		b := &bill{s: s, p: principalOf(c)}
		c.Set(billKey, b)
		c.Next()
		b.settle(c)
	}
}

// refundLast refunds the latest charge of the request at once and takes it
// off the bill, so that it is never refunded twice.
func refundLast(c *gin.Context) error {
	v, ok := c.Get(billKey)
	if !ok {
		return cairn.Errorf(cairn.EINTERNAL, "api: refundLast outside a paid route")
	}
	b := v.(*bill)
	if len(b.charges) == 0 {
		return nil
	}
	ch := b.charges[len(b.charges)-1]
	b.charges = b.charges[:len(b.charges)-1]
	_, err := b.s.Ledger.Refund(context.WithoutCancel(c.Request.Context()), ch, 0, requestID(c))
	return err
}

// running is the set of priced requests in progress, by start time.
type running struct {
	mu   sync.Mutex
	next uint64
	m    map[uint64]time.Time
}

// begin records a request started at t and returns the function that
// records its end.
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

// SettledBefore returns the time before which every priced request has ended
// (now when none is running): a checkpoint for billing.Recovery. Every
// charge is taken after its request started, so the charges of requests
// still running at a crash are all at or after the last checkpoint.
func (s *Server) SettledBefore() time.Time { return s.priced.since(s.Clock.Now()) }

// chargedItem runs one item of a bulk request under a billed route: it
// charges op's live cost, runs fn, and settles that charge at once as the
// item alone would be settled (spec 7): refunded when fn fails with a
// refundable status (400, 413, 422, 5xx...), kept and marked settled when
// it fails with 404 or 409. A free item adds no charge and refunds nothing
// (refundLast would otherwise take back an earlier item's charge).
func (s *Server) chargedItem(c *gin.Context, op string, fn func() error) error {
	cost := s.Pricing.Cost(op)
	if err := chargeMore(c, op, cost); err != nil {
		return err
	}
	err := fn()
	if err == nil || cost <= 0 {
		return err
	}
	if !refundable(StatusOf(cairn.ErrorCode(err))) {
		b := c.MustGet(billKey).(*bill)
		b.markSettled(context.WithoutCancel(c.Request.Context()), b.charges[len(b.charges)-1:])
		return err
	}
	if rerr := refundLast(c); rerr != nil {
		s.Logger.ErrorContext(c.Request.Context(), "bulk item refund failed", "op", op, "err", rerr)
	}
	return err
}
