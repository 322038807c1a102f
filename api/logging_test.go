package api_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/api"
	"github.com/cairn-dev/cairn/api/apitest"
)

// records returns the JSON log lines written so far whose msg is msg.
func records(t *testing.T, logs *apitest.LogBuffer, msg string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		if line == "" {
			continue
		}
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if r["msg"] == msg {
			out = append(out, r)
		}
	}
	return out
}

// TestErrorsLogThroughConfiguredLogger checks that a recovered panic and
// a server-side error are logged by Deps.Logger with the request id of
// the response, and that nothing reaches the process-wide default logger.
func TestErrorsLogThroughConfiguredLogger(t *testing.T) {
	var global apitest.LogBuffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewJSONHandler(&global, nil)))
	t.Cleanup(func() { slog.SetDefault(prev) })

	var logs apitest.LogBuffer
	var closeStore func() error
	srv := newServerLimits(t, api.DefaultLimits(), func(d *api.Deps) {
		d.Logger = slog.New(slog.NewJSONHandler(&logs, nil))
		d.Media = nil // every media handler then panics on a nil service
		closeStore = d.Health.(interface{ Close() error }).Close
	})
	key, _ := register(t, srv.Handler())

	send := func(path, requestID string) int {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("X-Request-Id", requestID)
		w := httptest.NewRecorder()
		srv.Handler().ServeHTTP(w, req)
		if got := w.Header().Get("X-Request-Id"); got != requestID {
			t.Fatalf("X-Request-Id %q, want %q", got, requestID)
		}
		return w.Code
	}
	if code := send("/v1/media", "panic-req-1"); code != http.StatusInternalServerError {
		t.Fatalf("panicking handler: status %d, want 500", code)
	}
	panics := records(t, &logs, "panic")
	if len(panics) != 1 || panics[0]["request_id"] != "panic-req-1" || panics[0]["level"] != "ERROR" ||
		!strings.Contains(panics[0]["stack"].(string), "listMedia") {
		t.Fatalf("panic log records %v", panics)
	}

	if err := closeStore(); err != nil {
		t.Fatal(err)
	}
	if code := send("/readyz", "closed-req-2"); code != http.StatusServiceUnavailable {
		t.Fatalf("closed store: status %d, want 503", code)
	}
	failed := records(t, &logs, "request failed")
	if len(failed) != 1 || failed[0]["request_id"] != "closed-req-2" || failed[0]["code"] != "unavailable" {
		t.Fatalf("request failed records %v", failed)
	}
	if global.String() != "" {
		t.Fatalf("the default logger was written to: %s", global.String())
	}
}
