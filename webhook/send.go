package webhook

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/cairn-dev/cairn"
)

// Run sends deliveries until ctx ends: it first recovers the events a
// crash may have lost (Recover), then it fans the new alerts out to
// their endpoints, leases the due deliveries and attempts each, at most
// Concurrency at once and PerEndpoint to one endpoint, then waits for a
// Wake or the next poll. Attempts in flight when ctx ends are left to
// their lease, to be sent again after a restart.
func (s *Service) Run(ctx context.Context) {
	s.init()
	var wg sync.WaitGroup
	defer wg.Wait()
	if err := s.Recover(ctx); err != nil && ctx.Err() == nil {
		s.Logger.Error("recovering the webhook events of the last facts failed", "err", err)
	}
	t := time.NewTicker(s.Config.Poll)
	defer t.Stop()
	for {
		if err := s.fanOut(ctx); err != nil && ctx.Err() == nil {
			s.Logger.Error("webhook fan-out failed", "err", err)
		}
		if err := s.sendDue(ctx, &wg); err != nil && ctx.Err() == nil {
			s.Logger.Error("webhook deliveries failed", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		case <-t.C:
		}
	}
}

// fanOut enqueues the watchlist.hit deliveries of the alerts in the
// outbox, a batch at a time.
func (s *Service) fanOut(ctx context.Context) error {
	for {
		alerts, err := s.Store.UnfannedAlerts(ctx, 1000)
		if err != nil || len(alerts) == 0 {
			return err
		}
		endpoints := map[string][]cairn.WebhookEndpoint{}
		var ds []cairn.WebhookDelivery
		ids := make([]string, len(alerts))
		for i, a := range alerts {
			ids[i] = a.ID
			eps, ok := endpoints[a.DeveloperID]
			if !ok {
				if eps, err = s.Store.SubscribedEndpoints(ctx, a.DeveloperID, cairn.EventWatchlistHit); err != nil {
					return err
				}
				endpoints[a.DeveloperID] = eps
			}
			more, err := s.deliveries(eps, cairn.EventWatchlistHit, a.ID, a.CreatedAt, s.Render(a))
			if err != nil {
				return err
			}
			ds = append(ds, more...)
		}
		if err := s.Store.FanOutAlerts(ctx, ids, ds); err != nil {
			return err
		}
	}
}

// sendDue leases due deliveries, as many as there is room for, and
// attempts each in a goroutine of wg.
func (s *Service) sendDue(ctx context.Context, wg *sync.WaitGroup) error {
	for {
		room := 4*s.Config.Concurrency - s.inFlight()
		if room <= 0 {
			return nil
		}
		now := s.Clock.Now()
		ds, err := s.Store.LeaseDeliveries(ctx, now, now.Add(s.Config.Lease), room)
		if err != nil || len(ds) == 0 {
			return err
		}
		for _, d := range ds {
			s.begin(d.EndpointID)
			wg.Add(1)
			go func() {
				defer wg.Done()
				s.attempt(ctx, d)
			}()
		}
		if len(ds) < room {
			return nil
		}
	}
}

// inFlight counts the leased deliveries not yet recorded.
func (s *Service) inFlight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.per {
		n += c
	}
	return n
}

func (s *Service) begin(endpoint string) {
	s.mu.Lock()
	s.per[endpoint]++
	s.mu.Unlock()
}

func (s *Service) end(endpoint string) {
	s.mu.Lock()
	if s.per[endpoint]--; s.per[endpoint] == 0 {
		delete(s.per, endpoint)
	}
	s.mu.Unlock()
}

// slot returns the semaphore of an endpoint.
func (s *Service) slot(endpoint string) chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.slots[endpoint]
	if !ok {
		c = make(chan struct{}, s.Config.PerEndpoint)
		s.slots[endpoint] = c
	}
	return c
}

// attempt sends d once, within the endpoint's and the total bound, and
// records the outcome.
func (s *Service) attempt(ctx context.Context, d cairn.WebhookDelivery) {
	defer s.Wake() // room for more: the sender leases the next ones now
	defer s.end(d.EndpointID)
	slot := s.slot(d.EndpointID)
	select {
	case slot <- struct{}{}:
	case <-ctx.Done():
		return
	}
	defer func() { <-slot }()
	select {
	case s.sem <- struct{}{}:
	case <-ctx.Done():
		return
	}
	defer func() { <-s.sem }()
	ep, err := s.Store.Endpoint(ctx, d.DeveloperID, d.EndpointID)
	if err != nil {
		return // deleted: its deliveries went with it
	}
	status, sendErr := s.send(ctx, ep, &d)
	if ctx.Err() != nil {
		return // shutting down: the lease runs out and the delivery is sent again
	}
	s.record(context.WithoutCancel(ctx), ep, &d, status, sendErr)
}

// send posts the delivery, signed, and returns the response status (an
// error for a failed request or a status other than 2xx).
func (s *Service) send(ctx context.Context, ep *cairn.WebhookEndpoint, d *cairn.WebhookDelivery) (int, error) {
	if ep.Disabled {
		return 0, fmt.Errorf("endpoint disabled: %s", ep.Reason)
	}
	ts := s.Clock.Now().Unix()
	sig, err := Sign(ep.Secret, d.ID, ts, d.Body)
	if err != nil {
		return 0, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ep.URL, bytes.NewReader(d.Body))
	if err != nil {
		return 0, err
	}
	h := req.Header
	h.Set("Content-Type", "application/json")
	h.Set("User-Agent", "cairn-webhooks/1")
	h.Set("webhook-id", d.ID)
	h.Set("webhook-timestamp", strconv.FormatInt(ts, 10))
	h.Set("webhook-signature", sig)
	resp, err := s.Client.Do(req)
	if err != nil {
		if dialRefused(err) {
			return 0, fmt.Errorf("refused: the endpoint's address is not public")
		}
		return 0, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, MaxResponseBytes))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp.StatusCode, fmt.Errorf("status %d", resp.StatusCode)
	}
	return resp.StatusCode, nil
}

// record stores the outcome of an attempt: delivered; or due again after
// the backoff, failed once the retries ran out; and the endpoint's
// failing state, disabled after DisableAfter of failures.
func (s *Service) record(ctx context.Context, ep *cairn.WebhookEndpoint, d *cairn.WebhookDelivery, status int, sendErr error) {
	now := s.Clock.Now()
	d.Attempts++
	d.LastAttemptAt, d.LastStatus, d.LastError = now, status, ""
	if sendErr == nil {
		d.Status = cairn.DeliveryDelivered
	} else {
		d.LastError = clip(sendErr.Error(), 300)
		d.NextAttemptAt = now.Add(s.backoff(d.Attempts))
		if d.NextAttemptAt.Sub(d.CreatedAt) > s.Config.RetryFor {
			d.Status = cairn.DeliveryFailed
		}
	}
	if err := s.Store.UpdateDelivery(ctx, d); err != nil && !cairn.IsCode(err, cairn.ENOTFOUND) {
		s.Logger.Error("recording a webhook delivery failed", "delivery", d.ID, "err", err)
	}
	failing := sendErr != nil && !ep.Disabled
	// A day of failures, or a delivery whose every retry failed.
	disable := failing && !ep.FailingSince.IsZero() &&
		(now.Sub(ep.FailingSince) >= s.Config.DisableAfter || d.Status == cairn.DeliveryFailed && !ep.FailingSince.After(d.CreatedAt))
	if failing == !ep.FailingSince.IsZero() && !disable {
		return // the endpoint's state stays
	}
	_, err := s.Store.UpdateEndpoint(ctx, ep.DeveloperID, ep.ID, func(e *cairn.WebhookEndpoint) error {
		switch {
		case !failing:
			e.FailingSince = time.Time{}
		case e.FailingSince.IsZero():
			e.FailingSince = now
		case disable:
			e.Disabled = true
			e.Reason = fmt.Sprintf("Every delivery failed since %s; the last: %s.", e.FailingSince.UTC().Format(time.RFC3339), d.LastError)
		}
		return nil
	})
	if err != nil && !cairn.IsCode(err, cairn.ENOTFOUND) {
		s.Logger.Error("recording a webhook endpoint's state failed", "webhook", ep.ID, "err", err)
	}
}

// backoff is the delay after the nth failed attempt: FirstRetry doubled
// n-1 times, at most MaxRetry.
func (s *Service) backoff(n int) time.Duration {
	d := s.Config.FirstRetry
	for i := 1; i < n && d < s.Config.MaxRetry; i++ {
		d *= 2
	}
	return min(d, s.Config.MaxRetry)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
