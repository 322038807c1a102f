package ingest

import (
	"context"
	"time"
)

// Escalated makes a community escalation take effect within seconds: the
// list version is rebuilt at once when no run is going, else right after
// the run, in the background, so that a report never waits for a slow
// download. The escalation must be committed to the store before the call.
func (p *Pipeline) Escalated(ctx context.Context) error {
	if p.run.TryLock() {
		defer p.run.Unlock()
		_, _, err := p.rebuildShared(ctx, false)
		return err
	}
	if !p.waiting.CompareAndSwap(false, true) {
		return nil // a waiting rebuild will read this escalation too
	}
	p.bg.Go(func() {
		p.run.Lock()
		defer p.run.Unlock()
		p.waiting.Store(false) // escalations committed from here on need another rebuild
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Minute)
		defer cancel()
		if _, _, err := p.rebuildShared(ctx, false); err != nil {
			p.logger().Error("rebuild after a community escalation failed", "err", err)
		}
	})
	return nil
}

// Wait waits for the background rebuilds to finish.
func (p *Pipeline) Wait() { p.bg.Wait() }

// Ready reports whether screening against the current version means
// anything: some source has entries, fetched now or restored from the
// store. With no source configured and none stored, or every source
// failed since the data dir was created, every address would screen
// clear, so the front end refuses to screen. (Community escalations alone
// do not make a list: they flag, they never clear.)
func (p *Pipeline) Ready() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, st := range p.state {
		if st.Listings.Len() > 0 {
			return true
		}
	}
	return false
}
