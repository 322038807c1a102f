package postgres

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/cairn-dev/cairn"
)

// The audit entries of reads (ReadMemoryVersion) are deferred off the
// request path: the read is one SELECT, and its entry, with its ID and
// CreatedAt assigned at once, waits in memory; within AuditDefer of the
// first entry waiting, every entry waiting is inserted in one statement
// (sqlAuditGroup), synchronous_commit off as every read's entry. Before
// the audit table is read here (ListAudit) the agent's waiting entries are
// inserted, and those being inserted are waited for, so a client reads its
// own reads' entries through this instance; Close inserts them all. A
// group that fails waits again, ahead of the entries queued meanwhile, and
// is retried after deferRetry; the table ignores an entry it holds already
// (a group whose answer was lost). At most maxDeferredAudit entries wait:
// beyond, a read inserts its own entry before it answers, never dropping
// it.
//
// A read's entry was never synced (a crash of the database could lose the
// last ones); a crash of the process now also loses those still waiting,
// at most one interval's. Another instance sharing the database sees an
// entry once it is inserted.

// DefaultAuditDefer is the longest a read's audit entry waits by default.
const DefaultAuditDefer = 5 * time.Millisecond

// maxDeferredAudit bounds the entries waiting.
const maxDeferredAudit = 10000

// deferredAudit holds the read entries waiting to be inserted.
type deferredAudit struct {
	interval time.Duration // <= 0: none deferred
	limit    int           // maxDeferredAudit
	logger   *slog.Logger

	// flushMu is held by whoever inserts entries, from taking them until
	// the answer, so that a reader waits for the entries in flight.
	flushMu sync.Mutex

	mu       sync.Mutex
	queue    []pendingAudit
	inflight int // entries taken and not answered yet
	timer    flushTimer
	closed   bool
}

// pendingAudit is an entry waiting, with its detail as JSON (nil: none).
type pendingAudit struct {
	cairn.AuditEntry
	detail *string
}

func (d *deferredAudit) init(interval time.Duration, logger *slog.Logger) {
	d.interval, d.limit, d.logger = interval, maxDeferredAudit, cmpLogger(logger)
}

// deferring reports whether read entries are deferred at all.
func (d *deferredAudit) deferring() bool { return d.interval > 0 }

// deferAudit queues e, prepared (ID, CreatedAt, AgentID), to be inserted
// within the interval; false when it must be inserted now: none deferred,
// closed, the queue full, or a value the table would refuse (which must
// fail its own read rather than the group).
func (db *DB) deferAudit(e cairn.AuditEntry) bool {
	d := &db.audits
	if d.interval <= 0 || !validText(e.AgentID, e.ID, e.Action, e.Resource, e.RequestID, e.IP) {
		return false
	}
	p := pendingAudit{AuditEntry: e}
	if e.Detail != nil {
		b, err := json.Marshal(e.Detail)
		if err != nil || !validText(string(b)) || strings.Contains(string(b), `\u0000`) {
			return false
		}
		s := string(b)
		p.detail = &s
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed || len(d.queue)+d.inflight >= d.limit {
		return false
	}
	d.queue = append(d.queue, p)
	d.timer.arm(d.interval, db.flushAuditTimer)
	return true
}

// flushAudit inserts the waiting entries of the agent ("": of every
// agent), after the entries being inserted by another caller have their
// answer.
func (db *DB) flushAudit(ctx context.Context, agentID string) error {
	d := &db.audits
	if d.interval <= 0 {
		return nil
	}
	d.mu.Lock()
	idle := d.inflight == 0 && !hasAgent(d.queue, agentID)
	d.mu.Unlock()
	if idle {
		return nil
	}
	d.flushMu.Lock()
	defer d.flushMu.Unlock()
	d.mu.Lock()
	var group []pendingAudit
	if agentID == "" {
		group, d.queue = d.queue, nil
	} else {
		rest := d.queue[:0:0]
		for _, e := range d.queue {
			if e.AgentID == agentID {
				group = append(group, e)
			} else {
				rest = append(rest, e)
			}
		}
		d.queue = rest
	}
	d.inflight += len(group)
	d.mu.Unlock()
	if len(group) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	err := insertAuditGroup(ctx, db, group)
	d.mu.Lock()
	defer d.mu.Unlock()
	d.inflight -= len(group)
	if err != nil {
		d.queue = append(group, d.queue...)
		d.retryLater(db)
	}
	return err
}

// hasAgent reports whether q holds an entry of the agent ("": any).
func hasAgent(q []pendingAudit, agentID string) bool {
	if agentID == "" {
		return len(q) > 0
	}
	for i := range q {
		if q[i].AgentID == agentID {
			return true
		}
	}
	return false
}

// retryLater schedules a flush after deferRetry unless one is due. d.mu is
// held.
func (d *deferredAudit) retryLater(db *DB) {
	if !d.closed {
		d.timer.arm(deferRetry, db.flushAuditTimer)
	}
}

// flushAuditTimer is the timer's: it inserts every waiting entry.
func (db *DB) flushAuditTimer() {
	d := &db.audits
	d.timer.start(&d.mu)
	if db.closed.Load() {
		return // Close inserts them
	}
	if err := db.flushAudit(context.Background(), ""); err != nil {
		d.logger.Warn("read audit entries not inserted; retried shortly", "err", err)
	}
}

// sqlAuditGroup inserts the entries of the arrays (agent ids, ids,
// actions, resources, details, request ids, ips, times) in one statement
// whose transaction does not wait for the disk, leaving out those the
// table holds already.
const sqlAuditGroup = `INSERT INTO audit (agent_id, id, action, resource, detail, request_id, ip, created_at)
SELECT a.agent_id, a.id, a.action, a.resource, a.detail::jsonb, a.request_id, a.ip, a.created_at
FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamptz[])
	AS a(agent_id, id, action, resource, detail, request_id, ip, created_at),
	(SELECT ` + asyncCommitExpr + `) AS async
ON CONFLICT (agent_id, id) DO NOTHING`

// insertAuditGroup inserts es with sqlAuditGroup.
func insertAuditGroup(ctx context.Context, db *DB, es []pendingAudit) error {
	n := len(es)
	agents, ids, actions, resources, reqs, ips := make([]string, n), make([]string, n), make([]string, n),
		make([]string, n), make([]string, n), make([]string, n)
	details, times := make([]*string, n), make([]time.Time, n)
	for i, e := range es {
		agents[i], ids[i], actions[i], resources[i], reqs[i], ips[i] = e.AgentID, e.ID, e.Action, e.Resource, e.RequestID, e.IP
		times[i], details[i] = e.CreatedAt, e.detail
	}
	_, err := db.pool.Exec(ctx, sqlAuditGroup, agents, ids, actions, resources, details, reqs, ips, times)
	return mapErr(err, "insert audit entries")
}

// closeAudit inserts every waiting entry before the pool closes, trying
// again a few times; later reads insert their own.
func (db *DB) closeAudit() {
	d := &db.audits
	d.mu.Lock()
	d.closed = true
	d.timer.stop()
	d.mu.Unlock()
	var err error
	for try := 0; try < 3; try++ {
		if err = db.flushAudit(context.Background(), ""); err == nil {
			return
		}
		time.Sleep(deferRetry)
	}
	d.mu.Lock()
	lost := len(d.queue)
	d.mu.Unlock()
	d.logger.Warn("read audit entries lost at close", "entries", lost, "err", err)
}
