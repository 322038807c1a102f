package pebble

import (
	"bytes"
	"context"
	"encoding/binary"
	"math"

	"github.com/cairn-dev/cairn"
)

// UpdateAgent runs fn on a copy of the agent under the agent's stripe and
// commits the result, its index moves and the audit entry in one synced
// batch, only when fn returns nil. fn may not change ID or DeveloperID
// (EINVALID). A new KeyHash that another agent holds is ECONFLICT.
func (db *DB) UpdateAgent(ctx context.Context, id string, fn func(*cairn.Agent) error, audit *cairn.AuditEntry) (*cairn.Agent, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	defer db.lock(&db.agts, id).Unlock()

	var old cairn.Agent
	if ok, err := db.getJSON(agentKey(id), &old); err != nil {
		return nil, err
	} else if !ok {
		return nil, cairn.Errorf(cairn.ENOTFOUND, "Agent not found.")
	}
	a := old
	a.KeyHash = bytes.Clone(old.KeyHash)
	a.SecretHash = bytes.Clone(old.SecretHash)
	if err := fn(&a); err != nil {
		return nil, err
	}
	if a.ID != old.ID || a.DeveloperID != old.DeveloperID {
		return nil, cairn.Errorf(cairn.EINVALID, "An agent's id and developer cannot change.")
	}
	if len(a.KeyHash) == 0 {
		return nil, cairn.Errorf(cairn.EINVALID, "Missing API key hash.")
	}

	keyMoved := !bytes.Equal(a.KeyHash, old.KeyHash)
	depMoved := hasDepositSlot(&a) != hasDepositSlot(&old) ||
		hasDepositSlot(&a) && a.DepositIndex != old.DepositIndex
	if keyMoved || depMoved {
		db.idx.Lock()
		defer db.idx.Unlock()
	}
	b := db.db.NewBatch()
	defer b.Close()
	if keyMoved {
		if taken, err := db.has(keyHashKey(a.KeyHash)); err != nil {
			return nil, err
		} else if taken {
			return nil, cairn.Errorf(cairn.ECONFLICT, "API key already in use.")
		}
		if err := b.Delete(keyHashKey(old.KeyHash), nil); err != nil {
			return nil, err
		}
		if err := b.Set(keyHashKey(a.KeyHash), []byte(id), nil); err != nil {
			return nil, err
		}
	}
	if depMoved {
		if hasDepositSlot(&a) {
			if taken, err := db.has(depIdxKey(a.DepositIndex)); err != nil {
				return nil, err
			} else if taken {
				return nil, cairn.Errorf(cairn.ECONFLICT, "Deposit index already in use.")
			}
			if err := b.Set(depIdxKey(a.DepositIndex), []byte(id), nil); err != nil {
				return nil, err
			}
		}
		if hasDepositSlot(&old) {
			if err := b.Delete(depIdxKey(old.DepositIndex), nil); err != nil {
				return nil, err
			}
		}
	}
	if err := setJSON(b, agentKey(id), &a); err != nil {
		return nil, err
	}
	var e cairn.AuditEntry
	if audit != nil {
		e = *audit
		if e.AgentID == "" {
			e.AgentID = id
		}
		if err := db.stageAudit(b, &e); err != nil {
			return nil, err
		}
	}
	if err := db.commit(b); err != nil {
		return nil, err
	}
	if audit != nil {
		*audit = e
	}
	return &a, nil
}

// NextDepositIndex reserves the next deposit index: the counter is persisted
// before the index is returned, and indexes held by an agent are skipped.
func (db *DB) NextDepositIndex(ctx context.Context) (uint32, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	db.idx.Lock()
	defer db.idx.Unlock()

	var next uint64
	if v, err := db.getBytes(keyDepositNext); err != nil {
		return 0, err
	} else if len(v) == 8 {
		next = binary.BigEndian.Uint64(v)
	}
	for ; next <= math.MaxUint32; next++ {
		taken, err := db.has(depIdxKey(uint32(next)))
		if err != nil {
			return 0, err
		} else if !taken {
			break
		}
	}
	if next > math.MaxUint32 {
		return 0, cairn.Errorf(cairn.EUNAVAILABLE, "Deposit indexes exhausted.")
	}
	b := db.db.NewBatch()
	defer b.Close()
	if err := b.Set(keyDepositNext, binary.BigEndian.AppendUint64(nil, next+1), nil); err != nil {
		return 0, err
	}
	if err := db.commit(b); err != nil {
		return 0, err
	}
	return uint32(next), nil
}
