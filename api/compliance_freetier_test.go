package api_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
)

// TestE2EFreeTierSurvivesRestart uses up a developer's free window, restarts
// the service on the same data dir and checks that the window and the
// screening count are still there.
func TestE2EFreeTierSurvivesRestart(t *testing.T) {
	ts, a := screenAgent(t)
	totalScreenings := func(ts *apitest.Server) float64 {
		t.Helper()
		st := ts.Do(t, "GET", "/v1/compliance/stats", "", nil).Must(t, 200)
		return st.JSON["compliance"].(map[string]any)["totalScreenings"].(float64)
	}

	r := ts.Do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": apitest.Addresses(10)}).Must(t, 200)
	rl := r.JSON["rateLimit"].(map[string]any)
	reset := r.Header.Get("X-RateLimit-Free-Reset")
	if rl["freeRemaining"] != float64(0) || rl["billableAddresses"] != float64(0) || rl["freeReset"] != reset ||
		r.Header.Get("X-RateLimit-Free-Remaining") != "0" || reset == "" {
		t.Fatalf("first ten: %v %v", rl, r.Header)
	}
	if b := ts.Balance(t, a.Key); b != 100 {
		t.Fatalf("balance %d after ten free addresses, want 100", b)
	}

	t.Run("GiveBackOnPaymentRequired", func(t *testing.T) {
		// A request refused with 402 gives its free addresses back.
		p := ts.Register(t, "")
		ts.Do(t, "POST", "/v1/admin/credits", apitest.AdminToken, map[string]any{"developerId": p.DeveloperID, "amount": -100, "reason": "test"}).Must(t, 200)
		ts.Do(t, "POST", "/v1/compliance/screen", p.Key, map[string]any{"addresses": apitest.Addresses(3)}).Must(t, 200)
		ts.Do(t, "POST", "/v1/compliance/screen", p.Key, map[string]any{"addresses": apitest.Addresses(10)}).Problem(t, 402, cairn.EPAYMENT)
		r := ts.Do(t, "POST", "/v1/compliance/screen", p.Key, map[string]any{"addresses": apitest.Addresses(7)}).Must(t, 200)
		if r.Header.Get("X-RateLimit-Billable") != "0" || r.Header.Get("X-RateLimit-Free-Remaining") != "0" {
			t.Fatalf("after a 402 the seven addresses left are not free: %v", r.Header)
		}
	})
	t.Run("ConcurrentRequestsShareOneWindow", func(t *testing.T) {
		c := ts.Register(t, "")
		const requests, each = 6, 3
		var wg sync.WaitGroup
		var mu sync.Mutex
		free := 0
		body, _ := json.Marshal(map[string]any{"addresses": apitest.Addresses(each)})
		for i := 0; i < requests; i++ {
			wg.Go(func() {
				req, _ := http.NewRequest("POST", ts.URL+"/v1/compliance/screen", bytes.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+c.Key)
				req.Header.Set("Content-Type", "application/json")
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
				billable, err := strconv.Atoi(resp.Header.Get("X-RateLimit-Billable"))
				if resp.StatusCode != 200 || err != nil {
					t.Errorf("status %d, billable %q", resp.StatusCode, resp.Header.Get("X-RateLimit-Billable"))
					return
				}
				mu.Lock()
				free += each - billable
				mu.Unlock()
			})
		}
		wg.Wait()
		if free != 10 {
			t.Fatalf("%d free addresses over concurrent requests, want 10", free)
		}
		if b := ts.Balance(t, c.Key); b != 100-(requests*each-10) {
			t.Fatalf("balance %d, want %d", b, 100-(requests*each-10))
		}
	})
	before := totalScreenings(ts)
	if before < 1 {
		t.Fatalf("totalScreenings %v before the restart", before)
	}

	ts2 := ts.Restart(t)

	if n := totalScreenings(ts2); n != before {
		t.Fatalf("totalScreenings %v after the restart, want %v", n, before)
	}
	r = ts2.Do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": apitest.Addresses(1)}).Must(t, 200)
	rl = r.JSON["rateLimit"].(map[string]any)
	if h := r.Header; h.Get("X-RateLimit-Free-Limit") != "10" || h.Get("X-RateLimit-Free-Remaining") != "0" ||
		h.Get("X-RateLimit-Billable") != "1" || h.Get("X-RateLimit-Free-Reset") != reset {
		t.Fatalf("headers after the restart: %v; want 0 free remaining until %s and 1 billable", h, reset)
	}
	if rl["freeRemaining"] != float64(0) || rl["freeReset"] != reset || rl["billableAddresses"] != float64(1) || rl["creditCharged"] != float64(1) {
		t.Fatalf("rateLimit after the restart: %v", rl)
	}
	if b := ts2.Balance(t, a.Key); b != 99 {
		t.Fatalf("balance %d after the restart, want 99: the screening was not billed", b)
	}
	if n := totalScreenings(ts2); n != before+1 {
		t.Fatalf("totalScreenings %v, want %v", n, before+1)
	}
}
