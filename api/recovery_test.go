package api_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/internal/wiring"
	"github.com/cairn-dev/cairn/store"
)

// panickingStore is the store with a rate-limit counter that panics, as a
// bug in one would (the registration route's rate-limit middleware calls
// it), and a ping that panics (in the readiness handler).
type panickingStore struct{ store.Store }

func (panickingStore) TakeRate(context.Context, string, int, time.Duration, time.Time) (cairn.RateTake, error) {
	panic("rate store exploded: secret-panic-detail")
}

func (panickingStore) Ping(context.Context) error { panic("ping exploded: secret-panic-detail") }

// TestPanicRecovered: a panic in a middleware (the registration rate
// limit) or in a handler (readiness) is answered 500 with a problem
// document (code internal, the request id, nothing of the panic), logged
// once with its stack, recorded by the request log, and the server goes on
// serving.
func TestPanicRecovered(t *testing.T) {
	ls := apitest.NewServer(t, func(p *wiring.Parts) { p.Core = panickingStore{p.Core} })
	logs := ls.Logs
	for _, tc := range []struct{ name, method, path, body, route string }{
		{"Middleware", "POST", "/v1/auth/agent-register", `{}`, "/v1/auth/agent-register"},
		{"Handler", "GET", "/readyz", "", "/readyz"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(logLines(logs.String()))
			req, _ := http.NewRequest(tc.method, ls.URL+tc.path, strings.NewReader(tc.body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("X-Request-Id", "panic-"+tc.name)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatalf("the panic reached the connection: %v", err)
			}
			raw, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			var doc map[string]any
			if err := json.Unmarshal(raw, &doc); err != nil || resp.StatusCode != 500 ||
				resp.Header.Get("Content-Type") != "application/problem+json" || doc["code"] != cairn.EINTERNAL ||
				doc["requestId"] != "panic-"+tc.name || doc["status"] != float64(500) || strings.Contains(string(raw), "secret-panic-detail") {
				t.Fatalf("%d %s: %s", resp.StatusCode, resp.Header.Get("Content-Type"), raw)
			}
			var panics, requests, failed int
			for _, l := range logLines(logs.String())[before:] {
				switch l["msg"] {
				case "panic":
					panics++
					if l["route"] != tc.route || !strings.Contains(l["stack"].(string), "panickingStore") {
						t.Errorf("panic line without its route or stack: %v", l)
					}
				case "request":
					requests++
					if l["status"] != float64(500) || l["route"] != tc.route {
						t.Errorf("request line: %v", l)
					}
				case "request failed":
					failed++
				}
			}
			if panics != 1 || requests != 1 || failed != 0 {
				t.Fatalf("logged %d panic, %d request and %d request failed lines, want 1, 1, 0:\n%s", panics, requests, failed, logs.String())
			}
		})
	}
	ls.Do(t, "GET", "/healthz", "", nil).Must(t, 200)
}

// logLines decodes JSON log lines.
func logLines(s string) []map[string]any {
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(s), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) == nil {
			out = append(out, m)
		}
	}
	return out
}
