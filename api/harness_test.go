package api_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/internal/wiring"
)

// TestLiveServer checks the test server (apitest.NewServer): register, store, read.
func TestLiveServer(t *testing.T) {
	ls := apitest.NewServer(t)
	key := ls.Register(t, "tester").Key
	created := ls.Do(t, http.MethodPost, "/v1/memory", key, map[string]any{"key": "a/b", "content": "x"}).Must(t, http.StatusCreated)
	ls.Do(t, http.MethodGet, "/v1/memory/"+created.Str("id"), key, nil).Must(t, http.StatusOK)
	if got := ls.Balance(t, key); got != 94 {
		t.Fatalf("balance %d, want 94", got)
	}
}

// newMemServer is a test server with the request limits (registrations
// included) out of the way.
func newMemServer(t *testing.T, setup ...func(*wiring.Parts)) *apitest.Server {
	t.Helper()
	return apitest.NewServer(t, append(setup, func(p *wiring.Parts) {
		p.Limits.WritesPerAgent, p.Limits.RequestsPerKey, p.Limits.RegistrationsPerIP = 100000, 100000, 0
	})...)
}

// testerServer is a test server with an agent registered as "tester",
// and that agent's key.
func testerServer(t *testing.T) (*apitest.Server, string) {
	t.Helper()
	ls := apitest.NewServer(t)
	return ls, ls.Register(t, "tester").Key
}

// clockedMemServer is newMemServer on a manual clock set at start.
func clockedMemServer(t *testing.T, start time.Time) (*apitest.Server, *cairn.ManualClock) {
	t.Helper()
	clock := cairn.NewManualClock(start)
	return newMemServer(t, apitest.WithClock(clock)), clock
}

// memServer is newMemServer with an agent topped up to credits.
func memServer(t *testing.T, credits int, setup ...func(*wiring.Parts)) (*apitest.Server, apitest.Agent) {
	t.Helper()
	ts := newMemServer(t, setup...)
	return ts, ts.NewAgent(t, credits)
}
