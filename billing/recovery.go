package billing

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

// RecoverableOps are the operations whose charges start-up recovery
// checks: priced writes, whose effect is committed with an audit entry
// carrying the request id. Reads are not among them: their audit entries
// are not synced, so they cannot prove that a read happened.
var RecoverableOps = []string{OpMemoryWrite, OpMemoryUpdate, OpMemoryDelete, OpBulkWrite}

// Lookback bounds the recovery scan when no checkpoint was ever written.
const Lookback = 24 * time.Hour

// checkpointSkew widens the scan before the checkpoint, against small
// steps of the clock between two runs.
const checkpointSkew = time.Minute

const checkpointSetting = "billing.checkpoint"

// originsSetting lists, in Settings, the origins of this instance's boots
// whose charges the next start recovers.
const originsSetting = "billing.origins"

// RecoveryReason is the reason of a refund made by Recover.
const RecoveryReason = "The request was interrupted by a restart before its write was stored."

// Recovery returns the credits of priced writes that a crash cut short: a
// write is charged (in the ledger) before it is stored (with its audit
// entry), so a crash in between leaves a charge for a write that never
// happened, and the client got no answer.
//
// While serving, the service checkpoints the time before which every
// priced request has ended (Checkpoint). At start, before serving, Recover
// reads the ledger from the last checkpoint (a few seconds, or the length
// of the longest request, before the crash; Lookback when there is none)
// and refunds each charge of this instance's previous boot for a
// RecoverableOps operation that has
//   - no refund (a failed request refunds its own),
//   - no settled mark (a 404 or 409 keeps its charge and logs nothing),
//   - and no audit entry with its request id (the write's own commit).
//
// A request that charged n items (bulk) and logged k effects gets its
// newest n-k charges back. Each refund carries the unique key
// RefundKey(<charge id>), the key of every refund of a charge, so recovering twice refunds nothing twice.
//
// Charges name the boot that took them (Origin, from BootOrigin: a random
// part per start), and Settings, local to the instance, records that
// origin at each start: the next start recovers the charges of the boots
// recorded there only. Two instances started from copies of one data dir
// (same service key) that share a ledger therefore never refund each
// other's writes in flight.
type Recovery struct {
	Ledger   store.Ledger   // the ledger the charges are in
	Effects  store.Audit    // the log the writes commit their audit entries to
	Settled  store.Settled  // charges that stand with no effect
	Settings store.Settings // keeps the checkpoint and the boot origins; local to this instance
	Origin   string         // this boot, as in Ledger.Origin
	// LegacyOrigin is recovered when Settings records no boot: the origin
	// of charges taken by releases whose origins had no per-boot part.
	LegacyOrigin string
	Clock        cairn.Clock
	// OnRefund, when set, observes each refund made.
	OnRefund func(op string, amount int64)
}

type checkpoint struct {
	Through time.Time `json:"through"`
}

// Checkpoint records durably that every priced request that started
// before t has ended.
func (r *Recovery) Checkpoint(ctx context.Context, t time.Time) error {
	b, err := json.Marshal(checkpoint{Through: t.UTC()})
	if err != nil {
		return err
	}
	return r.Settings.PutSetting(ctx, checkpointSetting, b)
}

// since returns where the scan starts.
func (r *Recovery) since(ctx context.Context, now time.Time) (time.Time, error) {
	b, err := r.Settings.Setting(ctx, checkpointSetting)
	if cairn.IsCode(err, cairn.ENOTFOUND) {
		return now.Add(-Lookback), nil
	} else if err != nil {
		return time.Time{}, err
	}
	var cp checkpoint
	if err := json.Unmarshal(b, &cp); err != nil || cp.Through.IsZero() {
		return now.Add(-Lookback), nil
	}
	return cp.Through.Add(-checkpointSkew), nil
}

// Recover refunds the charges of interrupted requests and checkpoints
// the present. It returns the refunds it made. It must run before the
// service takes requests.
func (r *Recovery) Recover(ctx context.Context) ([]*cairn.LedgerEntry, error) {
	now := r.Clock.Now()
	since, err := r.since(ctx, now)
	if err != nil {
		return nil, err
	}
	origins, err := r.previousOrigins(ctx)
	if err != nil {
		return nil, err
	}
	type reqKey struct{ agent, req string }
	open := map[string]*cairn.LedgerEntry{}
	refunded := map[string]bool{}
	err = r.Ledger.LedgerSince(ctx, since, func(e *cairn.LedgerEntry) bool {
		switch {
		case e.Kind == cairn.LedgerRefund && e.RefID != "":
			refunded[e.RefID] = true
		case e.Kind == cairn.LedgerCharge && slices.Contains(origins, e.Origin) && e.AgentID != "" && e.RequestID != "" &&
			slices.Contains(RecoverableOps, e.Operation):
			c := *e
			open[c.ID] = &c
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	if err := r.Settled.SettledSince(ctx, since, func(id string) bool { delete(open, id); return true }); err != nil {
		return nil, err
	}
	groups := map[reqKey][]*cairn.LedgerEntry{}
	agents := map[string]map[string]int{} // agent -> request id -> effects logged
	for id, c := range open {
		if refunded[id] {
			continue
		}
		k := reqKey{c.AgentID, c.RequestID}
		groups[k] = append(groups[k], c)
		if agents[c.AgentID] == nil {
			agents[c.AgentID] = map[string]int{}
		}
		agents[c.AgentID][c.RequestID] = 0
	}
	for agent, reqs := range agents {
		if err := r.countEffects(ctx, agent, since, reqs); err != nil {
			return nil, err
		}
	}
	var out []*cairn.LedgerEntry
	for k, charges := range groups {
		// One agent, so one developer: Seq orders the charges.
		slices.SortFunc(charges, func(a, b *cairn.LedgerEntry) int { return cmp.Compare(a.Seq, b.Seq) })
		keep := min(agents[k.agent][k.req], len(charges))
		for _, c := range charges[keep:] {
			ref, err := r.refund(ctx, c, now)
			if err != nil {
				return out, err
			}
			if ref != nil {
				out = append(out, ref)
			}
		}
	}
	// Every charge of the previous boots is settled now: the next start
	// recovers this boot's.
	b, err := json.Marshal([]string{r.Origin})
	if err != nil {
		return out, err
	}
	if err := r.Settings.PutSetting(ctx, originsSetting, b); err != nil {
		return out, err
	}
	return out, r.Checkpoint(ctx, now)
}

// previousOrigins are the origins whose charges Recover looks at: the
// boots Settings records (LegacyOrigin when it records none) and this one.
func (r *Recovery) previousOrigins(ctx context.Context) ([]string, error) {
	var origins []string
	b, err := r.Settings.Setting(ctx, originsSetting)
	switch {
	case cairn.IsCode(err, cairn.ENOTFOUND):
		if r.LegacyOrigin != "" {
			origins = append(origins, r.LegacyOrigin)
		}
	case err != nil:
		return nil, err
	default:
		if err := json.Unmarshal(b, &origins); err != nil {
			return nil, fmt.Errorf("setting %s: %w", originsSetting, err)
		}
	}
	return append(origins, r.Origin), nil
}

// BootOrigin is the origin of the charges of one start of an instance:
// base (derived from the instance's service key, so that an operator can
// tell instances apart) and a random part of 64 bits.
func BootOrigin(base string) string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	return base + "." + hex.EncodeToString(b[:])
}

// countEffects counts, for each request id in reqs, the agent's audit
// entries of writes since since.
func (r *Recovery) countEffects(ctx context.Context, agent string, since time.Time, reqs map[string]int) error {
	const page = 100
	before := ""
	for {
		entries, err := r.Effects.ListAudit(ctx, agent, cairn.AuditFilter{}, before, page)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if e.CreatedAt.Before(since) {
				return nil
			}
			switch e.Action {
			case cairn.AuditWrite, cairn.AuditUpload, cairn.AuditDelete:
				if n, ok := reqs[e.RequestID]; ok {
					reqs[e.RequestID] = n + 1
				}
			}
		}
		if len(entries) < page {
			return nil
		}
		before = entries[len(entries)-1].ID
	}
}

// refund returns charge c, once: nil when an earlier recovery did.
func (r *Recovery) refund(ctx context.Context, c *cairn.LedgerEntry, now time.Time) (*cairn.LedgerEntry, error) {
	e := &cairn.LedgerEntry{
		ID: cairn.NewID(), DeveloperID: c.DeveloperID, AgentID: c.AgentID, Kind: cairn.LedgerRefund,
		Operation: c.Operation, Amount: -c.Amount, RequestID: c.RequestID, RefID: c.ID,
		Reason: RecoveryReason, UniqueKey: RefundKey(c.ID), Origin: r.Origin, CreatedAt: now,
	}
	if err := r.Ledger.Apply(ctx, e); cairn.IsCode(err, cairn.ECONFLICT) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	if r.OnRefund != nil {
		r.OnRefund(c.Operation, e.Amount)
	}
	return e, nil
}
