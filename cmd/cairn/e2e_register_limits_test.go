package main

import (
	"testing"

	"github.com/cairn-dev/cairn"
)

// TestE2ERegistrationLimitSurvivesRestart: the registrations of a client
// are counted in the store, so a restart does not give it a fresh hour of
// starter credits.
func TestE2ERegistrationLimitSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	cfg := testConfig(t, dir)
	cfg.RegisterLimitPerIP = 2
	ts := startServer(t, cfg)
	ts.register(t, "")
	ts.register(t, "")
	ts.stop()
	ts = startServer(t, cfg)
	ts.do(t, "POST", "/v1/auth/agent-register", "", nil).problem(t, 429, cairn.ERATELIMIT)
}

// TestE2ERotationLimitSurvivesRestart: key rotation attempts (a guess of
// the rotation secret each) are counted in the store too.
func TestE2ERotationLimitSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	cfg := testConfig(t, dir)
	cfg.RotateLimitPerIP = 2
	ts := startServer(t, cfg)
	a := ts.register(t, "")
	for i := 0; i < 2; i++ {
		ts.do(t, "POST", "/v1/agents/self/rotate-key", a.Key, map[string]any{"rotationSecret": "wrong"}).problem(t, 401, cairn.EUNAUTHORIZED)
	}
	ts.stop()
	ts = startServer(t, cfg)
	ts.do(t, "POST", "/v1/agents/self/rotate-key", a.Key, map[string]any{"rotationSecret": a.Secret}).problem(t, 429, cairn.ERATELIMIT)
}
