package webhook

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

// Limits of endpoints and deliveries.
const (
	// MaxEndpoints is the most endpoints a developer account has.
	MaxEndpoints = 20
	// MaxResponseBytes is how much of a response is read (the rest is
	// dropped; the status decides).
	MaxResponseBytes = 64 << 10
)

// Config is how deliveries are sent.
type Config struct {
	// AllowPrivate lets endpoints be http and reach non-public addresses.
	AllowPrivate bool
	// Timeout bounds one attempt.
	Timeout time.Duration
	// FirstRetry is the delay after the first failed attempt; each next
	// one doubles, up to MaxRetry, until RetryFor has passed since the
	// delivery was created: then it is failed. An endpoint failing for
	// DisableAfter is disabled.
	FirstRetry, MaxRetry, RetryFor, DisableAfter time.Duration
	// Concurrency bounds the attempts in flight, PerEndpoint those to
	// one endpoint.
	Concurrency, PerEndpoint int
	// Poll is how often the sender looks for due deliveries besides the
	// wake-ups of new ones; Lease is how long an attempt holds its
	// delivery before another sender may take it.
	Poll, Lease time.Duration
}

// DefaultConfig returns the documented defaults.
func DefaultConfig() Config {
	return Config{Timeout: 10 * time.Second, FirstRetry: 5 * time.Second, MaxRetry: time.Hour, RetryFor: 24 * time.Hour,
		DisableAfter: 24 * time.Hour, Concurrency: 64, PerEndpoint: 4, Poll: time.Second, Lease: time.Minute}
}

// Validate checks the settings.
func (c Config) Validate() error {
	switch {
	case c.Timeout <= 0 || c.Timeout > 5*time.Minute:
		return cairn.Errorf(cairn.EINVALID, "--webhook-timeout must be between 0 and 5m.")
	case c.FirstRetry <= 0 || c.FirstRetry > c.MaxRetry || c.MaxRetry > c.RetryFor:
		return cairn.Errorf(cairn.EINVALID, "Webhook retries need 0 < first retry <= max retry <= retry period.")
	case c.Concurrency < 1 || c.PerEndpoint < 1 || c.PerEndpoint > c.Concurrency:
		return cairn.Errorf(cairn.EINVALID, "--webhook-concurrency and --webhook-per-endpoint must be >= 1, per endpoint <= total.")
	case c.Poll <= 0 || c.Lease <= c.Timeout:
		return cairn.Errorf(cairn.EINVALID, "The webhook poll must be > 0 and the lease longer than the timeout.")
	}
	return nil
}

// Service manages endpoints and sends deliveries.
type Service struct {
	Store  store.Webhooks
	Config Config
	// Client sends the deliveries; nil: NewClient of the Config.
	Client *http.Client
	// Render turns an alert into the data of its watchlist.hit event.
	Render func(cairn.WatchAlert) any
	Clock  cairn.Clock
	Logger *slog.Logger
	// Expiring, when set, is what SweepExpiring reads.
	Expiring *Expiring
	// Recovery, when set, is what Recover reads.
	Recovery *Recovery

	once  sync.Once
	wake  chan struct{}
	sem   chan struct{}
	mu    sync.Mutex
	per   map[string]int           // attempts in flight per endpoint
	slots map[string]chan struct{} // the bound of each endpoint's attempts
}

func (s *Service) init() {
	s.once.Do(func() {
		s.wake = make(chan struct{}, 1)
		s.sem = make(chan struct{}, s.Config.Concurrency)
		s.per, s.slots = map[string]int{}, map[string]chan struct{}{}
		if s.Client == nil {
			s.Client = NewClient(ClientOptions{AllowPrivate: s.Config.AllowPrivate, Timeout: s.Config.Timeout})
		}
		if s.Logger == nil {
			s.Logger = slog.New(slog.DiscardHandler)
		}
	})
}

// Wake tells the sender that deliveries or alerts are waiting.
func (s *Service) Wake() {
	s.init()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// checkEvents refuses an empty or unknown list of event types.
func checkEvents(events []string) error {
	if len(events) == 0 {
		return cairn.Errorf(cairn.EINVALID, "events must name at least one event.").With("field", "events")
	}
	for _, e := range events {
		if !slices.Contains(cairn.WebhookEvents, e) {
			return cairn.Errorf(cairn.EINVALID, "Unknown event %q.", e).With("field", "events").With("events", cairn.WebhookEvents)
		}
	}
	return nil
}

// Create registers an endpoint of the developer account and returns it
// with its secret (shown once).
func (s *Service) Create(ctx context.Context, developerID, rawURL string, events []string) (*cairn.WebhookEndpoint, error) {
	u, err := CheckURL(rawURL, s.Config.AllowPrivate)
	if err != nil {
		return nil, err
	}
	if err := checkEvents(events); err != nil {
		return nil, err
	}
	if have, err := s.Store.ListEndpoints(ctx, developerID, "", MaxEndpoints); err != nil {
		return nil, err
	} else if len(have) >= MaxEndpoints {
		return nil, cairn.Errorf(cairn.ECONFLICT, "A developer account has at most %d webhook endpoints.", MaxEndpoints).With("limit", MaxEndpoints)
	}
	slices.Sort(events)
	e := &cairn.WebhookEndpoint{ID: cairn.NewID(), DeveloperID: developerID, URL: u.String(), Events: slices.Compact(events),
		Secret: NewSecret(), CreatedAt: s.Clock.Now()}
	return e, s.Store.CreateEndpoint(ctx, e)
}

// RotateSecret gives the endpoint a new secret and returns it (shown
// once); the old one stops signing at once.
func (s *Service) RotateSecret(ctx context.Context, developerID, id string) (*cairn.WebhookEndpoint, error) {
	return s.Store.UpdateEndpoint(ctx, developerID, id, func(e *cairn.WebhookEndpoint) error {
		e.Secret = NewSecret()
		return nil
	})
}

// Enable enables a disabled endpoint again (its failures forgotten).
func (s *Service) Enable(ctx context.Context, developerID, id string) (*cairn.WebhookEndpoint, error) {
	return s.Store.UpdateEndpoint(ctx, developerID, id, func(e *cairn.WebhookEndpoint) error {
		e.Disabled, e.Reason, e.FailingSince = false, "", time.Time{}
		return nil
	})
}

// Redeliver makes a delivery due now again, whatever its state, with a
// new day of retries.
func (s *Service) Redeliver(ctx context.Context, developerID, id string) (*cairn.WebhookDelivery, error) {
	d, err := s.Store.Delivery(ctx, developerID, id)
	if err != nil {
		return nil, err
	}
	now := s.Clock.Now()
	d.Status, d.NextAttemptAt, d.CreatedAt = cairn.DeliveryPending, now, now
	if err := s.Store.UpdateDelivery(ctx, d); err != nil {
		return nil, err
	}
	s.Wake()
	return d, nil
}

// body is the JSON body of an event (Standard Webhooks).
type body struct {
	Type      string `json:"type"`
	Timestamp string `json:"timestamp"`
	Data      any    `json:"data"`
}

// deliveries makes the deliveries of one event to each endpoint.
func (s *Service) deliveries(eps []cairn.WebhookEndpoint, event, eventID string, at time.Time, data any) ([]cairn.WebhookDelivery, error) {
	b, err := json.Marshal(body{Type: event, Timestamp: at.UTC().Format(time.RFC3339Nano), Data: data})
	if err != nil {
		return nil, err
	}
	now := s.Clock.Now()
	out := make([]cairn.WebhookDelivery, len(eps))
	for i, e := range eps {
		out[i] = cairn.WebhookDelivery{ID: cairn.NewID(), DeveloperID: e.DeveloperID, EndpointID: e.ID, EventID: eventID, Type: event,
			Body: b, Status: cairn.DeliveryPending, NextAttemptAt: now, CreatedAt: now}
	}
	return out, nil
}

// Emit enqueues an event for the endpoints subscribed to it: the
// developer account's, or every account's when developerID is "". The
// eventID names the event, so that instances emitting one event enqueue
// it once.
func (s *Service) Emit(ctx context.Context, developerID, event, eventID string, data any) error {
	return s.emit(ctx, developerID, event, eventID, time.Time{}, data)
}

// emit is Emit to the endpoints created by createdBy (zero: all): an
// event recovered after a crash goes to those that were there when its
// fact was committed.
func (s *Service) emit(ctx context.Context, developerID, event, eventID string, createdBy time.Time, data any) error {
	s.init()
	eps, err := s.Store.SubscribedEndpoints(ctx, developerID, event)
	if !createdBy.IsZero() {
		eps = slices.DeleteFunc(eps, func(e cairn.WebhookEndpoint) bool { return e.CreatedAt.After(createdBy) })
	}
	if err != nil || len(eps) == 0 {
		return err
	}
	ds, err := s.deliveries(eps, event, event+":"+eventID, s.Clock.Now(), data)
	if err != nil {
		return err
	}
	if err := s.Store.EnqueueDeliveries(ctx, ds); err != nil {
		return err
	}
	s.Wake()
	return nil
}
