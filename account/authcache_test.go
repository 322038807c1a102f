package account_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/account"
)

// TestAuthCache: with AuthCacheTTL, a rotation or revocation through the
// same Service takes effect at once; one made by another instance sharing
// the store (a second Service) is seen once the TTL has passed, and not
// before; concurrent authentications racing a rotation never bring the old
// key back.
func TestAuthCache(t *testing.T) {
	ctx := context.Background()
	base := newService(t)
	clk := cairn.NewManualClock(time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC))
	one := &account.Service{Store: base.Store, Deposits: base.Deposits, Clock: clk, StarterCredits: 100, AuthCacheTTL: 5 * time.Second}
	other := &account.Service{Store: base.Store, Deposits: base.Deposits, Clock: clk, StarterCredits: 100}
	r, err := one.Register(ctx, "", "req", "127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	auth := func(key string) error { _, err := one.Authenticate(ctx, key); return err }
	if err := auth(r.Credentials.APIKey); err != nil {
		t.Fatal(err)
	}

	// Rotated by the other instance: the cached key keeps working for the
	// TTL, then stops; the new key works at once (it was never cached).
	rot, err := other.Rotate(ctx, r.Agent.ID, r.Credentials.RotationSecret, "req", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := auth(r.Credentials.APIKey); err != nil {
		t.Fatalf("old key within the TTL after another instance rotated it: %v", err)
	}
	if err := auth(rot.Credentials.APIKey); err != nil {
		t.Fatalf("new key: %v", err)
	}
	clk.Advance(5 * time.Second)
	if err := auth(r.Credentials.APIKey); !cairn.IsCode(err, cairn.EUNAUTHORIZED) {
		t.Fatalf("old key once the TTL passed: %v, want EUNAUTHORIZED", err)
	}

	// Rotated through this Service: the old key stops at once.
	rot2, err := one.Rotate(ctx, r.Agent.ID, rot.Credentials.RotationSecret, "req", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := auth(rot.Credentials.APIKey); !cairn.IsCode(err, cairn.EUNAUTHORIZED) {
		t.Fatalf("key rotated through this instance: %v, want EUNAUTHORIZED at once", err)
	}

	// Concurrent authentications while this Service rotates: afterwards
	// the old key is refused, whatever the interleaving.
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				_ = auth(rot2.Credentials.APIKey)
			}
		})
	}
	rot3, err := one.Rotate(ctx, r.Agent.ID, rot2.Credentials.RotationSecret, "req", "")
	if err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if err := auth(rot2.Credentials.APIKey); !cairn.IsCode(err, cairn.EUNAUTHORIZED) {
		t.Fatalf("key rotated while being used: %v, want EUNAUTHORIZED", err)
	}

	// Revoked through this Service: EFORBIDDEN at once.
	if err := auth(rot3.Credentials.APIKey); err != nil {
		t.Fatal(err)
	}
	if _, err := one.Revoke(ctx, r.Agent.ID, "req"); err != nil {
		t.Fatal(err)
	}
	if err := auth(rot3.Credentials.APIKey); !cairn.IsCode(err, cairn.EFORBIDDEN) {
		t.Fatalf("revoked agent: %v, want EFORBIDDEN at once", err)
	}
}
