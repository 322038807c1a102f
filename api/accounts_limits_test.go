package api_test

import (
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/internal/wiring"
)

// registerFrom registers an agent as the client at ip (through the trusted
// proxy of the test config) and returns the status.
func registerFrom(t *testing.T, ts *apitest.Server, ip string) int {
	t.Helper()
	return ts.Do(t, "POST", "/v1/auth/agent-register", "", nil, "X-Forwarded-For", ip).Status
}

// TestE2ERegistrationLimitIPv6By64: an IPv6 client owns its whole /64, so
// the per-client limit counts the /64, not the address.
func TestE2ERegistrationLimitIPv6By64(t *testing.T) {
	ts := apitest.NewServer(t, func(p *wiring.Parts) {
		p.Limits.RegistrationsPerIP = 2
		p.TrustedProxies = []string{"127.0.0.1"}
	})
	for _, ip := range []string{"2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:fffe"} {
		if st := registerFrom(t, ts, ip); st != 201 {
			t.Fatalf("register from %s: %d", ip, st)
		}
	}
	if st := registerFrom(t, ts, "2001:db8:1:2:abcd::9"); st != 429 {
		t.Fatalf("a third address of the same /64: %d, want 429", st)
	}
	if st := registerFrom(t, ts, "2001:db8:1:3::1"); st != 201 {
		t.Fatalf("another /64: %d, want 201", st)
	}
	// IPv4 clients are still counted by address.
	for _, ip := range []string{"203.0.113.1", "203.0.113.2", "203.0.113.2"} {
		if st := registerFrom(t, ts, ip); st != 201 {
			t.Fatalf("register from %s: %d", ip, st)
		}
	}
}

// TestE2ERegistrationGlobalCap: however many addresses a client has, all
// registrations together stay under --register-limit-global per hour.
func TestE2ERegistrationGlobalCap(t *testing.T) {
	ts := apitest.NewServer(t, func(p *wiring.Parts) {
		p.Limits.RegistrationsPerIP = 0
		p.Limits.RegistrationsAll = 3
		p.TrustedProxies = []string{"127.0.0.1"}
	})
	for _, ip := range []string{"198.51.100.1", "198.51.100.2", "198.51.100.3"} {
		if st := registerFrom(t, ts, ip); st != 201 {
			t.Fatalf("register from %s: %d", ip, st)
		}
	}
	r := ts.Do(t, "POST", "/v1/auth/agent-register", "", nil, "X-Forwarded-For", "198.51.100.4").Problem(t, 429, cairn.ERATELIMIT)
	if r.Header.Get("Retry-After") == "" {
		t.Fatal("429 without Retry-After")
	}
}

// TestE2ERegistrationLimitSurvivesRestart: the registrations of a client
// are counted in the store, so a restart does not give it a fresh hour of
// starter credits.
func TestE2ERegistrationLimitSurvivesRestart(t *testing.T) {
	ts := apitest.NewServer(t, func(p *wiring.Parts) { p.Limits.RegistrationsPerIP = 2 })
	ts.Register(t, "")
	ts.Register(t, "")
	ts = ts.Restart(t)
	ts.Do(t, "POST", "/v1/auth/agent-register", "", nil).Problem(t, 429, cairn.ERATELIMIT)
}

// TestE2ERotationLimitSurvivesRestart: key rotation attempts (a guess of
// the rotation secret each) are counted in the store too.
func TestE2ERotationLimitSurvivesRestart(t *testing.T) {
	ts := apitest.NewServer(t, func(p *wiring.Parts) { p.Limits.RotationsPerIP = 2 })
	a := ts.Register(t, "")
	for i := 0; i < 2; i++ {
		ts.Do(t, "POST", "/v1/agents/self/rotate-key", a.Key, map[string]any{"rotationSecret": "wrong"}).Problem(t, 401, cairn.EUNAUTHORIZED)
	}
	ts = ts.Restart(t)
	ts.Do(t, "POST", "/v1/agents/self/rotate-key", a.Key, map[string]any{"rotationSecret": a.Secret}).Problem(t, 429, cairn.ERATELIMIT)
}
