package api_test

import (
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
)

// TestE2EFreeWindowOpensAtFirstServedScreening: a request refused with 402
// serves no screening, so it opens no free window: the first served one
// does, and the next ten free addresses come an hour after it, not an hour
// after the refusal. The window lasts exactly an hour.
func TestE2EFreeWindowOpensAtFirstServedScreening(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	clock := cairn.NewManualClock(t0)
	eth, _ := apitest.ListFiles(t)
	ts := apitest.NewServer(t, apitest.WithClock(clock), apitest.Lists(t, "list:ETH="+eth))
	a := ts.Register(t, "")
	ts.Do(t, "POST", "/v1/admin/credits", apitest.AdminToken, map[string]any{"developerId": a.DeveloperID, "amount": -99, "reason": "test"}).Must(t, 200)

	ts.Do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": apitest.Addresses(12)}).Problem(t, 402, cairn.EPAYMENT)
	for i, tc := range []struct {
		after               time.Duration
		n, billable, remain int
		reset               time.Time
		balance             int
	}{
		{30 * time.Minute, 4, 0, 6, t0.Add(90 * time.Minute), 1},
		{59 * time.Minute, 7, 1, 0, t0.Add(90 * time.Minute), 0},
		{90*time.Minute - time.Millisecond, 0, 0, 0, t0.Add(90 * time.Minute), 0},
		{90 * time.Minute, 10, 0, 0, t0.Add(150 * time.Minute), 0},
	} {
		clock.Set(t0.Add(tc.after))
		if tc.n == 0 {
			ts.Do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": apitest.Addresses(1)}).Problem(t, 402, cairn.EPAYMENT)
			continue
		}
		r := ts.Do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": apitest.Addresses(tc.n)}).Must(t, 200)
		rl := r.JSON["rateLimit"].(map[string]any)
		if rl["billableAddresses"] != float64(tc.billable) || rl["freeRemaining"] != float64(tc.remain) ||
			rl["freeReset"] != apitest.Timestamp(tc.reset) || r.Header.Get("X-RateLimit-Free-Reset") != apitest.Timestamp(tc.reset) {
			t.Fatalf("request %d at +%v: rateLimit %v, headers %v; want billable %d, remaining %d, reset %s",
				i, tc.after, rl, r.Header, tc.billable, tc.remain, apitest.Timestamp(tc.reset))
		}
		if b := ts.Balance(t, a.Key); b != tc.balance {
			t.Fatalf("request %d: balance %d, want %d", i, b, tc.balance)
		}
	}
}
