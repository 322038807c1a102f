package postgres

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/jackc/pgx/v5"
)

// Charges are deferred off the request path. Each account this instance
// charges has a small state: the balance and ledger seq the database last
// reported for it (the BalanceAfter of an entry applied, a Developer
// read, a group of charges applied), when, and the charges accepted since
// and not yet applied. A charge (groupsCharge: kind charge, negative, no
// unique key) is accepted in memory, with no round trip, when that state
// is at most chargeFreshFor old, the balance net of every charge waiting
// and of this one stays at least deferFloor, and the charges waiting stay
// within maxDeferredCredits; otherwise it goes to the database as every
// other entry (after those waiting), which decides every 402. A debit
// Apply sent to the database counts as taken until its answer (a balance
// reported meanwhile may or may not hold it). Within ChargeDefer of the first charge
// waiting, each account's charges are applied in one statement: one
// UPDATE of the developer's row and one INSERT of the entries, numbered
// and balanced in their order (sqlChargeGroup), whose balance refreshes
// the state.
//
// Before anything else reads or moves an account's ledger here (Apply of
// any other entry, Developer, Transactions) its waiting charges are
// applied, and before what cannot name the account (LedgerByUniqueKey,
// LedgerSince, MarkSettled), every account's; so a client reads its own
// charges, a refund comes after its charge, and the balance read is the sum
// of the ledger read. Close applies them all.
//
// Another instance sharing the database may spend the balance meanwhile:
// when a group is not covered, the charges that fit are applied in their
// order and the others are unpaid (UnpaidCharges, a warning in the log).
// The request an unpaid charge paid for was served: the loss is the
// service's, never the client's. It is bounded by maxDeferredCredits per
// instance and account running out, as the group applied refreshes the
// balance (then below deferFloor, so the next charges go to the
// database), and it happens only when other instances spent more than
// deferFloor of the account since this one last read its balance (one
// interval and a round trip ago when it charges the account steadily, at
// most chargeFreshFor). A count of charges per interval would not bound
// it: a closed loop accepts hundreds in one. A refund of an
// unpaid charge (a failed request refunds its charge) is a no-op that
// succeeds, for unpaidKeepFor after the charge was refused. A crash of
// the process loses the charges still waiting: the service's loss again.
//
// The entries of deferred charges get their ID and CreatedAt at once, and
// their Seq and BalanceAfter in the database only (Apply leaves them 0).

// DefaultChargeDefer is the longest a deferred charge waits by default.
const DefaultChargeDefer = DefaultChargeFlush

const (
	// chargeFreshFor bounds the age of the balance a charge is accepted
	// against without the database.
	chargeFreshFor = time.Second
	// maxDeferredCredits bounds the credits of an account's charges
	// accepted and not yet applied, and deferFloor is the balance net of
	// them below which charges go to the database: a charge is deferred
	// only while the balance as last reported covers both. So near zero
	// every charge is decided by the database, and an instance loses at
	// most maxDeferredCredits of an account whose balance other instances
	// spent meanwhile (more than deferFloor since it last read it). Beyond
	// the bound, a charge applies the waiting ones and itself at once.
	maxDeferredCredits = 64
	deferFloor         = maxDeferredCredits
	// unpaidKeepFor is how long a refused charge's refund stays a no-op.
	unpaidKeepFor = 10 * time.Minute
	// deferRetry is the delay before charges whose group failed are sent
	// again.
	deferRetry = 100 * time.Millisecond
)

// deferredCharges holds the accounts' states.
type deferredCharges struct {
	interval time.Duration // <= 0: no charge deferred
	freshFor time.Duration // chargeFreshFor
	logger   *slog.Logger

	mu     sync.Mutex
	accts  map[string]*deferAcct // by developer id
	timer  *time.Timer           // set while a flush is due
	closed bool
	unpaid map[string]time.Time // refused charge ids: when to forget them

	unpaidN, unpaidCredits atomic.Uint64
}

// deferAcct is an account's state. Its fields but flushMu are guarded by
// deferredCharges.mu.
type deferAcct struct {
	// flushMu is held by whoever applies the account's charges, from
	// taking them until their answer, so that the next one waits for them.
	flushMu   sync.Mutex
	base      int64     // the balance the database reported at seq
	seq       uint64    // the ledger seq base is of
	refreshed time.Time // when base was reported
	queue     []cairn.LedgerEntry
	queued    int64 // the sum of the queue's amounts
	inflight  int64 // the sum of the amounts being applied
	syncing   int64 // the sum of the debits sent by Apply and not answered yet
	recheck   bool  // the queue holds charges of a group whose outcome was not known
}

func (d *deferredCharges) init(interval time.Duration, logger *slog.Logger) {
	d.interval, d.freshFor = interval, chargeFreshFor
	d.logger = cmpLogger(logger)
	d.accts = map[string]*deferAcct{}
	d.unpaid = map[string]time.Time{}
}

func cmpLogger(l *slog.Logger) *slog.Logger {
	if l == nil {
		return slog.Default()
	}
	return l
}

// UnpaidCharges reports the deferred charges the database refused since
// Open (another instance had spent the balance) and their credits.
func (db *DB) UnpaidCharges() (count, credits uint64) {
	return db.deferred.unpaidN.Load(), db.deferred.unpaidCredits.Load()
}

// deferCharge accepts e, prepared and grouped, without the database when
// the account's state allows (see above); false sends it there.
func (db *DB) deferCharge(e *cairn.LedgerEntry) bool {
	d := &db.deferred
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.interval <= 0 || d.closed {
		return false
	}
	a := d.accts[e.DeveloperID]
	if a == nil || time.Since(a.refreshed) > d.freshFor || e.Amount < -maxDeferredCredits {
		return false
	}
	waiting := a.queued + a.inflight + e.Amount // >= -2*maxDeferredCredits
	if waiting < -maxDeferredCredits || a.base+a.syncing < deferFloor-waiting {
		return false
	}
	a.queue = append(a.queue, *e)
	a.queued += e.Amount
	if d.timer == nil {
		d.timer = time.AfterFunc(d.interval, db.flushDeferred)
	}
	return true
}

// observe records the balance the database reported for the account at
// seq, unless a later one is known.
func (d *deferredCharges) observe(devID string, seq uint64, balance int64) {
	if d.interval <= 0 || seq == 0 {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if a := d.acct(devID); a != nil {
		a.see(seq, balance)
	}
}

// acct returns the account's state, created when absent (nil once
// closed). d.mu is held.
func (d *deferredCharges) acct(devID string) *deferAcct {
	a := d.accts[devID]
	if a == nil && !d.closed {
		a = &deferAcct{}
		d.accts[devID] = a
	}
	return a
}

// see records the balance at seq unless a later one is known. d.mu is
// held.
func (a *deferAcct) see(seq uint64, balance int64) {
	if seq > 0 && seq >= a.seq {
		a.base, a.seq, a.refreshed = balance, seq, time.Now()
	}
}

// reserve counts a debit that Apply sends to the database as in flight
// until the returned function records its answer (seq 0: refused): until
// then the balance reported may or may not include it, so charges are
// deferred as if it was taken. A credit is only observed.
func (d *deferredCharges) reserve(devID string, amount int64) (done func(seq uint64, balance int64)) {
	if d.interval <= 0 || amount >= 0 {
		return func(seq uint64, balance int64) { d.observe(devID, seq, balance) }
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	a := d.acct(devID)
	if a == nil {
		return func(uint64, int64) {}
	}
	a.syncing += amount
	return func(seq uint64, balance int64) {
		d.mu.Lock()
		defer d.mu.Unlock()
		a.syncing -= amount
		a.see(seq, balance)
	}
}

// isUnpaid reports whether the charge was refused as unpaid lately.
func (d *deferredCharges) isUnpaid(chargeID string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	_, ok := d.unpaid[chargeID]
	return ok
}

// flushDeveloper applies the account's waiting charges.
func (db *DB) flushDeveloper(ctx context.Context, devID string) error {
	d := &db.deferred
	if d.interval <= 0 {
		return nil
	}
	d.mu.Lock()
	a := d.accts[devID]
	d.mu.Unlock()
	if a == nil {
		return nil
	}
	return db.flushAcct(ctx, devID, a)
}

// flushAll applies every account's waiting charges, returning the first
// failure.
func (db *DB) flushAll(ctx context.Context) error {
	d := &db.deferred
	if d.interval <= 0 {
		return nil
	}
	var first error
	for id, a := range db.pendingAccts(false) {
		if err := db.flushAcct(ctx, id, a); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// pendingAccts returns the accounts with charges waiting or being applied;
// with forget, it drops the states too old to be used that are idle.
func (db *DB) pendingAccts(forget bool) map[string]*deferAcct {
	d := &db.deferred
	d.mu.Lock()
	defer d.mu.Unlock()
	out := map[string]*deferAcct{}
	for id, a := range d.accts {
		switch {
		case len(a.queue) > 0 || a.inflight != 0:
			out[id] = a
		case forget && a.syncing == 0 && time.Since(a.refreshed) > d.freshFor && a.flushMu.TryLock():
			delete(d.accts, id)
			a.flushMu.Unlock()
		}
	}
	if forget {
		now := time.Now()
		for id, until := range d.unpaid {
			if now.After(until) {
				delete(d.unpaid, id)
			}
		}
	}
	return out
}

// flushDeferred is the timer's: it applies the waiting charges of every
// account, a few accounts at a time, and schedules a retry of those that
// failed.
func (db *DB) flushDeferred() {
	d := &db.deferred
	d.mu.Lock()
	d.timer = nil
	d.mu.Unlock()
	if db.closed.Load() {
		return // Close applies them
	}
	var failed atomic.Bool
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for id, a := range db.pendingAccts(true) {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			if err := db.flushAcct(context.Background(), id, a); err != nil {
				failed.Store(true)
				d.logger.Warn("deferred charges not applied; retried shortly", "developer_id", id, "err", err)
			}
		})
	}
	wg.Wait()
	if failed.Load() {
		d.mu.Lock()
		if d.timer == nil && !d.closed {
			d.timer = time.AfterFunc(deferRetry, db.flushDeferred)
		}
		d.mu.Unlock()
	}
}

// flushAcct applies the account's waiting charges in one statement (those
// the balance covers, when it does not cover them all) and refreshes its
// state. On a failure they wait again, ahead of those queued meanwhile.
func (db *DB) flushAcct(ctx context.Context, devID string, a *deferAcct) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	a.flushMu.Lock()
	defer a.flushMu.Unlock()
	d := &db.deferred
	d.mu.Lock()
	group, sum, recheck := a.queue, a.queued, a.recheck
	a.queue, a.queued, a.recheck = nil, 0, false
	a.inflight += sum
	d.mu.Unlock()
	if len(group) == 0 {
		return nil
	}
	res, err := db.applyGroup(ctx, devID, group, recheck)
	d.mu.Lock()
	defer d.mu.Unlock()
	a.inflight -= sum
	if err != nil {
		a.queue = append(group, a.queue...)
		a.queued += sum
		a.recheck = true
		return err
	}
	a.see(res.seq, res.balance)
	if len(res.unpaid) > 0 {
		var credits int64
		until := time.Now().Add(unpaidKeepFor)
		for _, e := range res.unpaid {
			d.unpaid[e.ID] = until
			credits -= e.Amount
		}
		d.unpaidN.Add(uint64(len(res.unpaid)))
		d.unpaidCredits.Add(uint64(credits))
		d.logger.Warn("deferred charges refused by the database: the balance was spent meanwhile; the requests stay served",
			"developer_id", devID, "charges", len(res.unpaid), "credits", credits)
	}
	return nil
}

// groupResult is the outcome of a group of charges: the account's balance
// after them and its seq (0 when nothing was applied and the account is
// unknown), and the charges refused.
type groupResult struct {
	seq     uint64
	balance int64
	unpaid  []cairn.LedgerEntry
}

// sqlChargeGroup applies the charges of $1 in one statement: $2 their total
// (negative), $3 their count, then their ids, agents, operations, amounts,
// request ids, times and origins, in order. No row comes back when the
// balance does not cover the total.
const sqlChargeGroup = `WITH d AS (
	UPDATE developers SET balance = balance + $2, ledger_seq = ledger_seq + $3
	WHERE id = $1 AND balance + $2 >= 0
	RETURNING ledger_seq, balance
), e AS (
	SELECT * FROM unnest($4::text[], $5::text[], $6::text[], $7::bigint[], $8::text[], $9::timestamptz[], $10::text[])
		WITH ORDINALITY AS e(id, agent_id, operation, amount, request_id, created_at, origin, i)
)
INSERT INTO ledger (developer_id, seq, id, agent_id, kind, operation, amount, balance_after,
	request_id, ref_id, reason, unique_key, created_at, origin)
SELECT $1, d.ledger_seq - $3 + e.i, e.id, e.agent_id, $11, e.operation, e.amount,
	d.balance - $2 + sum(e.amount) OVER (ORDER BY e.i), e.request_id, '', '', NULL, e.created_at, e.origin
FROM d, e, (SELECT ` + asyncCommitExpr + `) AS async
RETURNING seq, balance_after`

// applyGroup applies group, the account's charges in their order: in one
// statement when the balance covers them all, else with the row locked,
// those that fit. With recheck (a previous attempt's outcome is unknown),
// the charges already in the ledger are left out first.
func (db *DB) applyGroup(ctx context.Context, devID string, group []cairn.LedgerEntry, recheck bool) (groupResult, error) {
	if recheck {
		var err error
		if group, err = db.notInLedger(ctx, devID, group); err != nil || len(group) == 0 {
			return groupResult{}, err
		}
	}
	res, ok, err := chargeGroup(ctx, db.pool, devID, group)
	if ok || err != nil {
		if ok {
			db.chargeCommitted()
		}
		return res, err
	}
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		res = groupResult{}
		var bal int64
		var seq uint64
		err := tx.QueryRow(ctx, "SELECT balance, ledger_seq FROM developers WHERE id = $1 FOR UPDATE", devID).Scan(&bal, &seq)
		if errors.Is(err, pgx.ErrNoRows) {
			res.unpaid = group
			return nil
		} else if err != nil {
			return mapErr(err, "lock developer")
		}
		var fit []cairn.LedgerEntry
		for _, e := range group {
			if bal+e.Amount >= 0 {
				bal += e.Amount
				fit = append(fit, e)
			} else {
				res.unpaid = append(res.unpaid, e)
			}
		}
		res.seq, res.balance = seq, bal
		if len(fit) == 0 {
			return nil
		}
		r, ok, err := chargeGroup(ctx, tx, devID, fit)
		if err == nil && !ok {
			err = cairn.Errorf(cairn.EINTERNAL, "postgres: charges refused with the developer row locked")
		}
		res.seq, res.balance = r.seq, r.balance
		return err
	})
	if err == nil && res.seq > 0 {
		db.chargeCommitted()
	}
	return res, err
}

// chargeGroup runs sqlChargeGroup: ok false, with nothing written, when
// the balance does not cover them all (or their total is out of range).
func chargeGroup(ctx context.Context, q rowsQuerier, devID string, es []cairn.LedgerEntry) (groupResult, bool, error) {
	var res groupResult
	n := len(es)
	var total int64
	ids, agents, ops, reqs, origins := make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	amounts, times := make([]int64, n), make([]time.Time, n)
	for i, e := range es {
		if total < math.MinInt64-e.Amount {
			return res, false, nil
		}
		total += e.Amount
		ids[i], agents[i], ops[i], reqs[i], origins[i] = e.ID, e.AgentID, e.Operation, e.RequestID, e.Origin
		amounts[i], times[i] = e.Amount, e.CreatedAt
	}
	rows, err := q.Query(ctx, sqlChargeGroup, devID, total, n, ids, agents, ops, amounts, reqs, times, origins, cairn.LedgerCharge)
	if err != nil {
		return res, false, mapErr(err, "apply charges")
	}
	defer rows.Close()
	got := 0
	for rows.Next() {
		var seq uint64
		var bal int64
		if err := rows.Scan(&seq, &bal); err != nil {
			return res, false, mapErr(err, "apply charges")
		}
		if seq > res.seq {
			res.seq, res.balance = seq, bal
		}
		got++
	}
	if err := rows.Err(); err != nil {
		return res, false, mapErr(err, "apply charges")
	}
	if got != 0 && got != n {
		return res, false, cairn.Errorf(cairn.EINTERNAL, "postgres: %d of %d charges applied together", got, n)
	}
	return res, got == n, nil
}

// notInLedger returns the charges of group that the account's ledger does
// not hold (a group applied whose answer was lost must not be applied
// twice).
func (db *DB) notInLedger(ctx context.Context, devID string, group []cairn.LedgerEntry) ([]cairn.LedgerEntry, error) {
	ids := make([]string, len(group))
	since := group[0].CreatedAt
	for i, e := range group {
		ids[i] = e.ID
		if e.CreatedAt.Before(since) {
			since = e.CreatedAt
		}
	}
	found, err := queryRows(ctx, db.pool, "ledger", func(rows pgx.Rows, id *string) error { return rows.Scan(id) },
		`SELECT id FROM ledger WHERE created_at >= $1 AND developer_id = $2 AND id = ANY($3)`, since, devID, ids)
	if err != nil {
		return nil, err
	}
	if len(found) == 0 {
		return group, nil
	}
	in := make(map[string]bool, len(found))
	for _, id := range found {
		in[id] = true
	}
	var out []cairn.LedgerEntry
	for _, e := range group {
		if !in[e.ID] {
			out = append(out, e)
		}
	}
	return out, nil
}

// closeDeferred applies every waiting charge, before the pool closes;
// later charges go to the database.
func (db *DB) closeDeferred() {
	d := &db.deferred
	d.mu.Lock()
	d.closed = true
	if d.timer != nil {
		d.timer.Stop()
		d.timer = nil
	}
	d.mu.Unlock()
	if err := db.flushAll(context.Background()); err != nil {
		d.logger.Warn("deferred charges lost at close", "err", err)
	}
}
