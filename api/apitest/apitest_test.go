package apitest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

const (
	uuid1 = "01a20292-d8c3-730d-b099-18d2060826e3"
	uuid2 = "01a20292-d8c3-730c-8fff-278cf9523c53"
)

func page(next string) string {
	return `{"transactions":[{"id":"` + uuid1 + `","kind":"grant","operation":"starter","amount":100,"balanceAfter":100,"createdAt":"2026-01-02T03:04:05.000Z"}],"limit":1,"nextCursor":` + next + `,"hasMore":false}`
}

func problem(status int, code string) string {
	return fmt.Sprintf(`{"type":"urn:cairn:problem:%s","title":"x","status":%d,"detail":"d","instance":"/v1/x","code":%q,"requestId":"r1"}`, code, status, code)
}

// TestValidate checks responses the document allows and ones it rejects.
func TestValidate(t *testing.T) {
	json, problemJSON := "application/json; charset=utf-8", "application/problem+json"
	cases := []struct {
		name, method, path string
		status             int
		contentType, body  string
		noRequestID        bool
		ok                 bool
	}{
		{"OK page", "GET", "/v1/billing/transactions?limit=1", 200, json, page(`"abc"`), false, true},
		{"OK null cursor", "GET", "/v1/billing/transactions", 200, json, page(`null`), false, true},
		{"OK problem", "GET", "/v1/billing/transactions", 400, problemJSON, problem(400, "invalid"), false, true},
		{"OK unknown path", "GET", "/v1/none", 404, problemJSON, problem(404, "not_found"), false, true},
		{"OK wrong method", "DELETE", "/v1/billing/pricing", 405, problemJSON, problem(405, "method_not_allowed"), false, true},
		{"OK path parameter", "POST", "/v1/admin/agents/" + uuid1 + "/revoke", 200, json, `{"agentId":"` + uuid1 + `","revoked":true,"revokedAt":"2026-01-02T03:04:05.000Z"}`, false, true},
		{"ErrCursorType", "GET", "/v1/billing/transactions", 200, json, page(`7`), false, false},
		{"ErrMissingField", "GET", "/v1/billing/balance", 200, json, `{"developerId":"` + uuid2 + `"}`, false, false},
		{"ErrFieldType", "GET", "/v1/billing/balance", 200, json, `{"developerId":"` + uuid2 + `","creditBalance":"100"}`, false, false},
		{"ErrUndocumentedStatus", "GET", "/v1/billing/pricing", 402, problemJSON, problem(402, "insufficient_credits"), false, false},
		{"ErrContentType", "GET", "/v1/billing/balance", 200, "text/html", `<p>hi</p>`, false, false},
		{"ErrProblemCode", "GET", "/v1/billing/transactions", 400, problemJSON, problem(400, "conflict"), false, false},
		{"ErrProblemShape", "GET", "/v1/billing/transactions", 400, problemJSON, `{"error":"bad"}`, false, false},
		{"ErrRequestID", "GET", "/healthz", 200, json, `{"status":"ok"}`, true, false},
		{"ErrUnknownPathStatus", "GET", "/v1/none", 200, json, `{}`, false, false},
		{"ErrConst", "POST", "/v1/admin/agents/x/revoke", 200, json, `{"agentId":"` + uuid1 + `","revoked":false,"revokedAt":"2026-01-02T03:04:05.000Z"}`, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(tc.method, "http://127.0.0.1:8080"+tc.path, nil)
			h := http.Header{"Content-Type": {tc.contentType}}
			if !tc.noRequestID {
				h.Set("X-Request-Id", "r1")
			}
			err := Validate(req, tc.status, h, []byte(tc.body))
			if tc.ok && err != nil {
				t.Fatalf("valid response rejected: %v", err)
			}
			if !tc.ok && err == nil {
				t.Fatal("invalid response accepted")
			}
		})
	}
}

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	failures []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
}

func TestValidateResponse(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		fails      bool
	}{
		{"OK", `{"status":"ok"}`, false},
		{"ErrBody", `{"status":"down"}`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", "/healthz", nil)
			resp := &http.Response{StatusCode: 200, Header: http.Header{
				"Content-Type": {"application/json; charset=utf-8"}, "X-Request-Id": {"r1"},
			}}
			rec := &recorder{TB: t}
			ValidateResponse(rec, req, resp, []byte(tc.body))
			if got := len(rec.failures) > 0; got != tc.fails {
				t.Fatalf("failed = %v, want %v: %v", got, tc.fails, rec.failures)
			}
			if tc.fails && !strings.Contains(rec.failures[0], "GET /healthz -> 200") {
				t.Fatalf("message does not name the request: %s", rec.failures[0])
			}
		})
	}
}
