package evm

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/chain"
	"github.com/cairn-dev/cairn/store"
	"github.com/ethereum/go-ethereum"
)

// Step runs one round: it settles the older versions, then sends or
// follows the transaction of the newest. Run calls it on every tick; tests
// call it directly. Failures of the chain are recorded in the store (the
// version becomes failed, retried with backoff), not returned; only store
// errors are.
//
// At most one transaction is in flight: a newer version is signed only once
// the transaction of an older one is mined, or can no longer be.
func (a *Anchorer) Step(ctx context.Context) error {
	a.sendMu.Lock()
	defer a.sendMu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, a.opts.CallTimeout)
	defer cancel()
	latest, err := store.LatestAnchor(ctx, a.opts.Store, a.target)
	if cairn.IsCode(err, cairn.ENOTFOUND) {
		return nil
	} else if err != nil {
		return err
	}
	if latest.Status == chain.AnchorSynced {
		return nil
	}
	if blocked, err := a.settleOlder(ctx, latest.ListVersion); err != nil || blocked {
		return err
	}
	if a.now().Before(latest.NextAttempt) {
		return nil
	}
	if len(latest.RawTx) == 0 {
		return a.send(ctx, latest)
	}
	_, err = a.track(ctx, latest, true)
	return err
}

// settleOlder walks the versions older than latest, newest first, until one
// that is settled (synced or superseded). Those without a transaction are
// superseded at once: anchoring the newest is enough. One with a
// transaction still in flight blocks the newest until it is mined or can no
// longer be (then it is superseded too).
func (a *Anchorer) settleOlder(ctx context.Context, latest uint64) (blocked bool, err error) {
	before := latest
	for {
		rs, err := a.opts.Store.ListAnchors(ctx, a.target, before, 64)
		if err != nil || len(rs) == 0 {
			return false, err
		}
		for _, r := range rs {
			switch {
			case r.Status == chain.AnchorSynced || r.Status == chain.AnchorSuperseded:
				return false, nil
			case len(r.RawTx) == 0:
				if err := a.supersede(ctx, r, latest); err != nil {
					return false, err
				}
			default:
				if a.now().Before(r.NextAttempt) {
					return true, nil
				}
				return a.track(ctx, r, false)
			}
		}
		before = rs[len(rs)-1].ListVersion
	}
}

func (a *Anchorer) supersede(ctx context.Context, r cairn.Anchor, by uint64) error {
	_, err := a.opts.Store.UpdateAnchor(ctx, a.target, r.ListVersion, func(x *cairn.Anchor) error {
		x.Status, x.Error, x.NextAttempt = chain.AnchorSuperseded, fmt.Sprintf("superseded by list version %d", by), time.Time{}
		return nil
	})
	if err == nil {
		a.log.Info("list version superseded", "list_version", r.ListVersion, "by", by, "tx", r.TxHash)
	}
	return err
}

// fail records a failed attempt of version r: the status is failed, the
// error kept (without the RPC URL) and the next attempt put off by the
// backoff. A signed transaction stays: it is followed again then.
func (a *Anchorer) fail(ctx context.Context, r cairn.Anchor, cause error) error {
	msg := Redact(cause)
	var next time.Time
	_, err := a.opts.Store.UpdateAnchor(ctx, a.target, r.ListVersion, func(x *cairn.Anchor) error {
		x.Attempts++
		next = a.now().Add(a.backoff(x.Attempts))
		x.Status, x.Error, x.NextAttempt = chain.AnchorFailed, msg, next
		return nil
	})
	if err == nil {
		a.log.Warn("anchoring failed; retrying later", "list_version", r.ListVersion, "err", msg, "retry_at", next, "tx", r.TxHash)
	}
	return err
}

func (a *Anchorer) backoff(attempts int) time.Duration {
	d := a.opts.MinBackoff
	for i := 1; i < attempts && d < a.opts.MaxBackoff; i++ {
		d *= 2
	}
	return min(d, a.opts.MaxBackoff)
}

func (a *Anchorer) now() time.Time { return a.opts.Clock.Now() }

var urlPattern = regexp.MustCompile(`(?i)\b(https?|wss?)://[^\s"']+`)

// Redact returns err's text without URLs: an RPC URL often carries an API
// key, and go-ethereum's transport errors quote it.
func Redact(err error) string {
	if err == nil {
		return ""
	}
	return urlPattern.ReplaceAllString(err.Error(), "<rpc-url>")
}

// isNotFound reports whether err is the node's "not found".
func isNotFound(err error) bool { return errors.Is(err, ethereum.NotFound) }
