package webhook

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

// ExpiringWindow is how long before its expiry a memory's memory.expiring
// event is sent (the default window of the TTL alerts).
const ExpiringWindow = 24 * time.Hour

// Expiring finds the memories whose expiry enters the alert window for
// the memory.expiring sweep.
type Expiring struct {
	Memories store.Memories
	Agents   interface {
		Agent(ctx context.Context, id string) (*cairn.Agent, error)
	}

	mu sync.Mutex
	// offered holds the events this instance enqueued, until their
	// expiry: a sweep does not enqueue them again.
	offered map[string]time.Time
}

// seen reports whether the event was enqueued by this instance.
func (x *Expiring) seen(id string) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	_, ok := x.offered[id]
	return ok
}

// remember records enqueued events and forgets those expired at now.
func (x *Expiring) remember(now time.Time, ids map[string]time.Time) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.offered == nil {
		x.offered = map[string]time.Time{}
	}
	for id, at := range x.offered {
		if !at.After(now) {
			delete(x.offered, id)
		}
	}
	for id, at := range ids {
		x.offered[id] = at
	}
}

// memoryExpiring is the data of a memory.expiring event: the item of the
// TTL alerts, with its agent.
type memoryExpiring struct {
	AgentID    string    `json:"agentId"`
	ID         string    `json:"id"`
	MemoryID   string    `json:"memoryId"`
	Key        string    `json:"key,omitempty"`
	Type       string    `json:"type"`
	Importance float64   `json:"importance"`
	ExpiresAt  time.Time `json:"expiresAt"`
}

// SweepExpiring enqueues a memory.expiring delivery, to each endpoint of
// its developer account subscribed to the event, for every memory whose
// expiry is within ExpiringWindow of now, and returns how many events it
// offered the store (those this instance offered before are skipped). The event is named by the memory and its expiry, and a
// delivery is stored once per (endpoint, event): a sweep that finds the
// memory again, on this instance or another, enqueues nothing, and a
// renewed expiry is a new event once it enters the window.
func (s *Service) SweepExpiring(ctx context.Context, now time.Time) (int, error) {
	s.init()
	if s.Expiring == nil {
		return 0, nil
	}
	all, err := s.Store.SubscribedEndpoints(ctx, "", cairn.EventMemoryExpiring)
	if err != nil || len(all) == 0 {
		return 0, err
	}
	byDev := map[string][]cairn.WebhookEndpoint{}
	for _, e := range all {
		byDev[e.DeveloperID] = append(byDev[e.DeveloperID], e)
	}
	devOf := map[string]string{}
	total := 0
	after := cairn.Memory{ExpiresAt: now.Add(time.Nanosecond)}
	for {
		ms, err := s.Expiring.Memories.ExpiringAfter(ctx, after, now.Add(ExpiringWindow), 1000)
		if err != nil || len(ms) == 0 {
			return total, err
		}
		n, err := s.enqueueExpiring(ctx, now, ms, byDev, devOf)
		if total += n; err != nil {
			return total, err
		}
		after = ms[len(ms)-1]
	}
}

// enqueueExpiring enqueues the memory.expiring deliveries of a page of
// memories; devOf caches the developer account of each agent.
func (s *Service) enqueueExpiring(ctx context.Context, now time.Time, ms []cairn.Memory, byDev map[string][]cairn.WebhookEndpoint, devOf map[string]string) (int, error) {
	var ds []cairn.WebhookDelivery
	events := map[string]time.Time{}
	for _, m := range ms {
		dev, ok := devOf[m.AgentID]
		if !ok {
			a, err := s.Expiring.Agents.Agent(ctx, m.AgentID)
			if err != nil && !cairn.IsCode(err, cairn.ENOTFOUND) {
				return 0, err
			} else if err == nil {
				dev = a.DeveloperID
			}
			devOf[m.AgentID] = dev
		}
		eps := byDev[dev]
		if len(eps) == 0 {
			continue
		}
		id := cairn.EventMemoryExpiring + ":" + m.ID + ":" + strconv.FormatInt(m.ExpiresAt.UnixNano(), 10)
		if s.Expiring.seen(id) {
			continue
		}
		events[id] = m.ExpiresAt
		more, err := s.deliveries(eps, cairn.EventMemoryExpiring, id, s.Clock.Now(), memoryExpiring{AgentID: m.AgentID,
			ID: m.LatestID, MemoryID: m.ID, Key: m.Key, Type: m.Type, Importance: m.Importance, ExpiresAt: m.ExpiresAt.UTC()})
		if err != nil {
			return 0, err
		}
		ds = append(ds, more...)
	}
	if len(ds) == 0 {
		return 0, nil
	}
	if err := s.Store.EnqueueDeliveries(ctx, ds); err != nil {
		return 0, err
	}
	s.Expiring.remember(now, events)
	s.Wake()
	return len(events), nil
}
