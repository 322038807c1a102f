package pebble

import (
	"context"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/cockroachdb/pebble/v2"
)

// CreateAccount writes the developer, its first agent with its key and
// deposit indexes and, when grant is not nil, the starter grant in one synced
// batch. The developer's balance and ledger sequence come from the grant
// alone; the caller's values are ignored. dev, agent and grant are changed
// only on success.
func (db *DB) CreateAccount(ctx context.Context, dev *cairn.Developer, agent *cairn.Agent, grant *cairn.LedgerEntry) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	a, err := store.CheckNewAccount(dev, agent)
	if err != nil {
		return err
	}
	var g cairn.LedgerEntry
	if grant != nil {
		g = *grant
		if g.DeveloperID == "" {
			g.DeveloperID = dev.ID
		}
	}

	db.idx.Lock()
	defer db.idx.Unlock()
	if grant != nil && g.UniqueKey != "" {
		defer db.lock(&db.uniqs, g.UniqueKey).Unlock()
	}
	defer db.lock(&db.devs, dev.ID).Unlock()

	if taken, err := db.has(devKey(dev.ID)); err != nil {
		return err
	} else if taken {
		return cairn.Errorf(cairn.ECONFLICT, "Developer account already exists.")
	}
	if err := db.checkAgentFree(&a); err != nil {
		return err
	}

	now := db.clock.Now()
	d := *dev
	d.Balance, d.LedgerSeq = 0, 0
	if d.CreatedAt.IsZero() {
		d.CreatedAt = now
	}
	if a.CreatedAt.IsZero() {
		a.CreatedAt = now
	}
	b := db.db.NewBatch()
	defer b.Close()
	if grant != nil {
		if g, err = db.stageEntry(b, &d, &g); err != nil {
			return err
		}
	}
	if err := stageNewAgent(b, &a); err != nil {
		return err
	}
	if err := setJSON(b, devKey(d.ID), &d); err != nil {
		return err
	}
	if err := db.commit(b); err != nil {
		return err
	}
	*dev, *agent = d, a
	if grant != nil {
		*grant = g
	}
	return nil
}

// EnsureDeveloper returns the developer, creating it with a zero balance
// when it does not exist.
func (db *DB) EnsureDeveloper(ctx context.Context, id string) (*cairn.Developer, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := db.flushCharges(); err != nil { // the balance counts the buffered charges
		return nil, err
	}
	if id == "" {
		return nil, cairn.Errorf(cairn.EINVALID, "Missing developer id.")
	}
	var d cairn.Developer
	if ok, err := db.getJSON(devKey(id), &d); err != nil || ok {
		return &d, err
	}
	defer db.lock(&db.devs, id).Unlock()
	if ok, err := db.getJSON(devKey(id), &d); err != nil || ok {
		return &d, err // created meanwhile
	}
	d = cairn.Developer{ID: id, CreatedAt: db.clock.Now()}
	b := db.db.NewBatch()
	defer b.Close()
	if err := setJSON(b, devKey(id), &d); err != nil {
		return nil, err
	}
	if err := db.commit(b); err != nil {
		return nil, err
	}
	return &d, nil
}

// CreateAgent adds the agent to its developer in one synced batch. agent is
// changed only on success.
func (db *DB) CreateAgent(ctx context.Context, agent *cairn.Agent) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	a, err := store.CheckAddedAgent(agent)
	if err != nil {
		return err
	}
	db.idx.Lock()
	defer db.idx.Unlock()
	defer db.lock(&db.devs, a.DeveloperID).Unlock()

	var d cairn.Developer
	if ok, err := db.getJSON(devKey(a.DeveloperID), &d); err != nil {
		return err
	} else if !ok {
		return cairn.Errorf(cairn.ENOTFOUND, "Developer account not found.")
	}
	if err := db.checkAgentFree(&a); err != nil {
		return err
	}
	if a.CreatedAt.IsZero() {
		a.CreatedAt = db.clock.Now()
	}
	b := db.db.NewBatch()
	defer b.Close()
	if err := stageNewAgent(b, &a); err != nil {
		return err
	}
	if err := db.commit(b); err != nil {
		return err
	}
	*agent = a
	return nil
}

// checkAgentFree fails with ECONFLICT when the agent's id, key hash or
// deposit index is taken. The caller holds db.idx.
func (db *DB) checkAgentFree(a *cairn.Agent) error {
	for _, c := range []struct {
		k    []byte
		skip bool
		what string
	}{
		{agentKey(a.ID), false, "Agent id already exists."},
		{keyHashKey(a.KeyHash), false, "API key already in use."},
		{depIdxKey(a.DepositIndex), !hasDepositSlot(a), "Deposit index already in use."},
	} {
		if c.skip {
			continue
		}
		if taken, err := db.has(c.k); err != nil {
			return err
		} else if taken {
			return cairn.Errorf(cairn.ECONFLICT, "%s", c.what)
		}
	}
	return nil
}

// hasDepositSlot reports whether the agent holds its deposit index: only an
// agent with a deposit address does.
func hasDepositSlot(a *cairn.Agent) bool { return a.DepositAddress != "" }

// stageNewAgent stages the agent with its key and deposit indexes.
func stageNewAgent(b *pebble.Batch, a *cairn.Agent) error {
	if err := setJSON(b, agentKey(a.ID), a); err != nil {
		return err
	}
	if err := b.Set(keyHashKey(a.KeyHash), []byte(a.ID), nil); err != nil {
		return err
	}
	if hasDepositSlot(a) {
		return b.Set(depIdxKey(a.DepositIndex), []byte(a.ID), nil)
	}
	return nil
}
