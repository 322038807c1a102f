package pebble

import (
	"context"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/cockroachdb/pebble/v2"
)

// Idempotency records live under prefixIdem: the record by agent, route
// and key, and an expiry index that the sweep scans in time order.
const (
	idemRecord = prefixIdem + "r/"
	idemExpiry = prefixIdem + "x/"
)

func idemKey(agent, route, k string) []byte { return key(idemRecord, agent, route, k) }

func idemExpiryKey(r *cairn.IdempotencyRecord) []byte {
	k := appendTime([]byte(idemExpiry), r.ExpiresAt)
	return appendComponent(appendComponent(appendComponent(k, r.AgentID), r.Route), r.Key)
}

var _ store.Idempotency = (*DB)(nil)

func (db *DB) lockIdem(agent, route, k string) *stripe {
	return db.lock(&db.idem, agent+"\x00"+route+"\x00"+k)
}

// PutIdempotency stores r in one synced batch with its expiry index entry.
func (db *DB) PutIdempotency(ctx context.Context, r *cairn.IdempotencyRecord) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b := db.db.NewBatch()
	defer b.Close()
	st := db.lockIdem(r.AgentID, r.Route, r.Key)
	if err := db.stageIdempotency(b, r); err != nil {
		st.Unlock()
		return err
	}
	return db.commitUnlock(b, st.Unlock)
}

// stageIdempotency stages r, replacing the expiry index entry of the record
// it overwrites. The caller holds the record's lock until the batch is
// applied.
func (db *DB) stageIdempotency(b *pebble.Batch, r *cairn.IdempotencyRecord) error {
	if r.AgentID == "" || r.Route == "" || r.Key == "" || r.ExpiresAt.IsZero() {
		return cairn.Errorf(cairn.EINVALID, "An idempotency record needs an agent, a route, a key and an expiry.")
	}
	if r.CreatedAt.IsZero() {
		r.CreatedAt = db.clock.Now()
	}
	k := idemKey(r.AgentID, r.Route, r.Key)
	var old cairn.IdempotencyRecord
	if ok, err := db.getJSON(k, &old); err != nil {
		return err
	} else if ok {
		_ = b.Delete(idemExpiryKey(&old), nil)
	}
	if err := setJSON(b, k, r); err != nil {
		return err
	}
	return b.Set(idemExpiryKey(r), nil, nil)
}

// Idempotency returns the record unless it expired at now.
func (db *DB) Idempotency(ctx context.Context, agentID, route, k string, now time.Time) (*cairn.IdempotencyRecord, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var r cairn.IdempotencyRecord
	if ok, err := db.getJSON(idemKey(agentID, route, k), &r); err != nil {
		return nil, err
	} else if !ok || !now.Before(r.ExpiresAt) {
		return nil, cairn.Errorf(cairn.ENOTFOUND, "No idempotency record.")
	}
	return &r, nil
}

// DeleteExpiredIdempotency scans the expiry index up to now and removes the
// records it names. Each removal is its own batch under the record's lock,
// so that it never removes a record written since it was read; it is not
// synced: a removal lost in a crash is redone by the next sweep, and an
// expired record is never returned meanwhile.
func (db *DB) DeleteExpiredIdempotency(ctx context.Context, now time.Time, limit int) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	upper := binary.BigEndian.AppendUint64([]byte(idemExpiry), uint64(now.UnixNano())+1)
	it, err := db.db.NewIter(&pebble.IterOptions{LowerBound: []byte(idemExpiry), UpperBound: upper})
	if err != nil {
		return 0, fmt.Errorf("pebble: iterate idempotency expiry: %w", err)
	}
	defer it.Close()
	n := 0
	for ok := it.First(); ok && n < limit; ok = it.Next() {
		rest := it.Key()[len(idemExpiry):]
		if len(rest) < 8 {
			return n, fmt.Errorf("pebble: short idempotency expiry key")
		}
		agent, rest, err := readComponent(rest[8:])
		if err != nil {
			return n, err
		}
		route, rest, err := readComponent(rest)
		if err != nil {
			return n, err
		}
		k, _, err := readComponent(rest)
		if err != nil {
			return n, err
		}
		if err := db.removeExpiredIdem(it.Key(), agent, route, k); err != nil {
			return n, err
		}
		n++
	}
	return n, it.Error()
}

// removeExpiredIdem removes the expiry index entry ek and the record it
// names, unless the record was replaced by one with another expiry.
func (db *DB) removeExpiredIdem(ek []byte, agent, route, k string) error {
	st := db.lockIdem(agent, route, k)
	defer st.Unlock()
	b := db.db.NewBatch()
	defer b.Close()
	_ = b.Delete(ek, nil)
	var r cairn.IdempotencyRecord
	if ok, err := db.getJSON(idemKey(agent, route, k), &r); err != nil {
		return err
	} else if ok && string(idemExpiryKey(&r)) == string(ek) {
		_ = b.Delete(idemKey(agent, route, k), nil)
	}
	if err := b.Commit(pebble.NoSync); err != nil {
		return fmt.Errorf("pebble: commit: %w", err)
	}
	return nil
}
