package billing

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"sync"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

// Operations with a price, and their default costs in credits (spec 4.15).
const (
	OpMemoryWrite  = "memory.write"
	OpMemoryRead   = "memory.read"
	OpMemoryUpdate = "memory.update"
	OpMemoryDelete = "memory.delete"
	OpMediaUpload  = "media.upload"
	OpMediaStream  = "media.stream"
	OpMediaDelete  = "media.delete"
	OpAgentCreate  = "agent.create"
	OpBulkWrite    = "bulk.write"
	OpSearch       = "search"
	// OpScreen is charged per billable address of a screening request
	// (spec 8); it is not one of the administrator-priced operations.
	OpScreen = "compliance.screen"
	// OpWatch is charged per address added to a watchlist beyond the
	// developer account's FreeWatched, once, when it is added.
	OpWatch = "compliance.watch"
)

// FreeWatched is how many addresses a developer account's watchlists hold
// together before OpWatch is charged for more.
const FreeWatched = 1000

// DefaultCosts returns the default price list.
func DefaultCosts() map[string]int64 {
	return map[string]int64{
		OpMemoryWrite: 5, OpMemoryRead: 1, OpMemoryUpdate: 5, OpMemoryDelete: 2,
		OpMediaUpload: 5, OpMediaStream: 1, OpMediaDelete: 2,
		OpAgentCreate: 10, OpBulkWrite: 5, OpSearch: 1, OpWatch: 1,
	}
}

// CreditPriceUSD is what one credit costs.
const CreditPriceUSD = 0.01

// MaxCost bounds a configured price, to keep arithmetic far from overflow.
const MaxCost = 1_000_000

const pricingSetting = "pricing"

// Pricing is the live price list. It is read on every priced request, so it
// is cached in memory; changes are merged into the stored list in the
// store's transaction, so that changes made at the same moment on several
// instances sharing the store all take effect.
type Pricing struct {
	store store.Settings
	// refresh orders this instance's reads and writes of the stored list,
	// so that a list read before a change never replaces the changed one.
	refresh sync.Mutex
	mu      sync.RWMutex // guards costs
	costs   map[string]int64
}

// NewPricing loads the stored price list, or the defaults when none was set.
func NewPricing(ctx context.Context, s store.Settings) (*Pricing, error) {
	p := &Pricing{store: s}
	costs, err := p.stored(ctx)
	if err != nil {
		return nil, err
	}
	p.costs = costs
	return p, nil
}

// stored reads the price list from the store.
func (p *Pricing) stored(ctx context.Context) (map[string]int64, error) {
	b, err := p.store.Setting(ctx, pricingSetting)
	if cairn.IsCode(err, cairn.ENOTFOUND) {
		b, err = nil, nil
	}
	if err != nil {
		return nil, err
	}
	return decodeCosts(b)
}

// decodeCosts returns the defaults overridden by the stored prices b (nil:
// none stored).
func decodeCosts(b []byte) (map[string]int64, error) {
	costs := DefaultCosts()
	if b == nil {
		return costs, nil
	}
	var stored map[string]int64
	if err := json.Unmarshal(b, &stored); err != nil {
		return nil, err
	}
	maps.Copy(costs, stored)
	return costs, nil
}

// install makes costs the live list and reports whether it changed.
func (p *Pricing) install(costs map[string]int64) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	changed := !maps.Equal(costs, p.costs)
	p.costs = costs
	return changed
}

// Reload reads the price list from the store again, so that a change
// another instance sharing the store made applies here too, and reports
// whether it changed.
func (p *Pricing) Reload(ctx context.Context) (bool, error) {
	p.refresh.Lock()
	defer p.refresh.Unlock()
	costs, err := p.stored(ctx)
	if err != nil {
		return false, err
	}
	return p.install(costs), nil
}

// Cost returns the live cost of op (0 for an unpriced operation).
func (p *Pricing) Cost(op string) int64 {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.costs[op]
}

// Costs returns a copy of the live price list.
func (p *Pricing) Costs() map[string]int64 {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return maps.Clone(p.costs)
}

// Set changes the price of the named operations; others keep their price,
// as stored when the change commits (another instance may have changed
// them since this one read the list). Unknown operations and costs outside
// 0..MaxCost are EINVALID and change nothing. It returns the new list.
func (p *Pricing) Set(ctx context.Context, changes map[string]int64) (map[string]int64, error) {
	if len(changes) == 0 {
		return nil, cairn.Errorf(cairn.EINVALID, "operationCosts must name at least one operation.")
	}
	known := DefaultCosts()
	for _, op := range slices.Sorted(maps.Keys(changes)) {
		if _, ok := known[op]; !ok {
			return nil, cairn.Errorf(cairn.EINVALID, "Unknown operation %q.", op).With("operation", op)
		}
		if c := changes[op]; c < 0 || c > MaxCost {
			return nil, cairn.Errorf(cairn.EINVALID, "Cost of %q must be between 0 and %d.", op, MaxCost).With("operation", op)
		}
	}
	p.refresh.Lock()
	defer p.refresh.Unlock()
	var next map[string]int64
	_, err := p.store.UpdateSetting(ctx, pricingSetting, func(old []byte) ([]byte, error) {
		costs, err := decodeCosts(old)
		if err != nil {
			return nil, err
		}
		maps.Copy(costs, changes)
		next = costs
		return json.Marshal(costs)
	})
	if err != nil {
		return nil, err
	}
	p.install(next)
	return maps.Clone(next), nil
}
