package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/account"
	"github.com/cairn-dev/cairn/api"
	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/billing"
	blobfs "github.com/cairn-dev/cairn/blob/fs"
	"github.com/cairn-dev/cairn/compliance"
	"github.com/cairn-dev/cairn/media"
	"github.com/cairn-dev/cairn/screening"
	"github.com/cairn-dev/cairn/store/pebble"
	"github.com/getkin/kin-openapi/openapi3"
)

const adminToken = "admin-test-token"

// deposits gives each agent a distinct address of the Aptos shape.
type deposits struct{}

func (deposits) Network() string           { return "testnet" }
func (deposits) SupportedTokens() []string { return []string{"APT"} }
func (deposits) Address(i uint32) (string, error) {
	return fmt.Sprintf("0x%064x", uint64(i)+1), nil
}

// newServer is the real front end over an in-memory Pebble store.
func newServer(t testing.TB) *api.Server {
	t.Helper()
	return newServerLimits(t, api.DefaultLimits())
}

// newServerLimits is newServer with the given request limits; each edit
// may change the dependencies before the server is built.
func newServerLimits(t testing.TB, limits api.Limits, edits ...func(*api.Deps)) *api.Server {
	t.Helper()
	db, err := pebble.Open("", pebble.Options{InMemory: true})
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { _ = db.Close() })
	ctx := context.Background()
	pricing, err := billing.NewPricing(ctx, db)
	if err != nil {
		t.Fatalf("pricing: %v", err)
	}
	clock := cairn.SystemClock{}
	blobs, err := blobfs.New(t.TempDir(), blobfs.Options{Clock: clock})
	if err != nil {
		t.Fatalf("blob store: %v", err)
	}
	cursors := cairn.NewCursors([]byte("cursor-key-for-tests-0123456789ab"))
	ledger := &billing.Ledger{Store: db, Clock: clock, Cursors: cursors}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	d := api.Deps{
		Health: db,
		Media:  &media.Service{Store: db, Blobs: blobs, Clock: clock},
		Compliance: &compliance.Service{Screening: &screening.Holder{}, Screenings: db, Ledger: ledger, Blobs: blobs,
			Clock: clock, Logger: logger},
		Reports:    &compliance.Reports{Store: db, Accounts: db, Ledger: db, Audit: db, Clock: clock, Logger: logger},
		Cursors:    cursors,
		Accounts:   &account.Service{Store: db, Deposits: deposits{}, Clock: clock, StarterCredits: account.DefaultStarterCredits},
		Tokens:     &account.Tokens{Secret: []byte("0123456789abcdef0123456789abcdef"), Clock: clock},
		Pricing:    pricing,
		Ledger:     ledger,
		Clock:      clock,
		Logger:     logger,
		AdminToken: adminToken,
		Limits:     limits,
	}
	for _, edit := range edits {
		edit(&d)
	}
	srv, err := api.New(d)
	if err != nil {
		t.Fatalf("api.New: %v", err)
	}
	return srv
}

// loadDocument parses the served JSON document the way clients do.
func loadDocument(t testing.TB) *openapi3.T {
	t.Helper()
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(api.OpenAPIDocument())
	if err != nil {
		t.Fatalf("load /v1/openapi.json: %v", err)
	}
	return doc
}

var ginParam = regexp.MustCompile(`:([A-Za-z0-9_]+)`)

// TestRouteCoverage fails when a registered route is missing from the
// document or the document names an operation no route serves.
func TestRouteCoverage(t *testing.T) {
	srv := newServer(t)
	registered := map[string]bool{}
	for _, r := range srv.Routes() {
		registered[r.Method+" "+ginParam.ReplaceAllString(r.Path, "{$1}")] = true
	}
	documented := map[string]bool{}
	doc := loadDocument(t)
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			documented[method+" "+path] = true
		}
	}
	for _, r := range sortedKeys(registered) {
		if !documented[r] {
			t.Errorf("route %s is registered in routes.go but missing from the OpenAPI fragments (api/openapi/)", r)
		}
	}
	for _, r := range sortedKeys(documented) {
		if !registered[r] {
			t.Errorf("the OpenAPI fragments document %s, which routes.go does not register", r)
		}
	}
	if len(registered) == 0 {
		t.Fatal("the server registered no routes")
	}
}

// TestDocument validates the document and checks what it states against
// the code: error codes, costs and per-operation metadata.
func TestDocument(t *testing.T) {
	doc := loadDocument(t)
	t.Run("Validates", func(t *testing.T) {
		if err := doc.Validate(context.Background()); err != nil {
			t.Fatal(err)
		}
		if !doc.IsOpenAPI31OrLater() {
			t.Fatalf("openapi = %q, want 3.1", doc.OpenAPI)
		}
	})
	t.Run("ErrorCodes", func(t *testing.T) {
		var enum []string
		for _, v := range doc.Components.Schemas["ErrorCode"].Value.Enum {
			enum = append(enum, v.(string))
		}
		if !slices.Equal(enum, cairn.Codes) {
			t.Fatalf("ErrorCode enum = %v, want cairn.Codes %v", enum, cairn.Codes)
		}
	})
	t.Run("ProblemResponses", func(t *testing.T) {
		// Every shared problem response fixes the code of its status.
		for name, ref := range doc.Components.Responses {
			schema := ref.Value.Content.Get("application/problem+json")
			if schema == nil {
				continue
			}
			var codes []any
			var status any
			for _, part := range schema.Schema.Value.AllOf {
				if p := part.Value.Properties["code"]; p != nil {
					codes, status = append(p.Value.Enum, p.Value.Const), part.Value.Properties["status"].Value.Const
				}
			}
			codes = slices.DeleteFunc(codes, func(c any) bool { return c == nil })
			if len(codes) == 0 {
				t.Errorf("response %s: no code", name)
			}
			for _, code := range codes {
				c, _ := code.(string)
				if c == "" || api.StatusOf(c) != int(toFloat(status)) {
					t.Errorf("response %s: code %v with status %v, want the status of the error table", name, code, status)
				}
			}
		}
	})
	t.Run("Operations", func(t *testing.T) {
		defaults := billing.DefaultCosts()
		ids := map[string]bool{}
		for path, item := range doc.Paths.Map() {
			for method, op := range item.Operations() {
				name := method + " " + path
				if op.OperationID == "" || ids[op.OperationID] {
					t.Errorf("%s: operationId %q missing or duplicated", name, op.OperationID)
				}
				ids[op.OperationID] = true
				if _, ok := op.Extensions["x-cairn-auth"].(string); !ok {
					t.Errorf("%s: no x-cairn-auth", name)
				}
				if op.Summary == "" || op.Security == nil {
					t.Errorf("%s: summary and an explicit security list are required", name)
				}
				if cost, ok := op.Extensions["x-cairn-cost"].(map[string]any); ok {
					opName, _ := cost["operation"].(string)
					want, known := defaults[opName]
					if !known || int64(toFloat(cost["credits"])) != want {
						t.Errorf("%s: x-cairn-cost %v, want a billing operation with its default cost (%d)", name, cost, want)
					}
				}
				for status, r := range op.Responses.Map() {
					if r.Value.Headers["X-Request-Id"] == nil {
						t.Errorf("%s %s: no X-Request-Id header", name, status)
					}
				}
			}
		}
	})
}

func toFloat(v any) float64 {
	switch n := v.(type) {
	case float64:
		return n
	case int:
		return float64(n)
	case int64:
		return float64(n)
	case uint64:
		return float64(n)
	}
	return -1
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// do sends a request to the handler and validates the response against
// the document.
func do(t *testing.T, srv *api.Server, method, path, auth string, header map[string]string, body string) (*http.Response, []byte) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, path, rd)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if auth != "" {
		req.Header.Set("Authorization", "Bearer "+auth)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	srv.Handler().ServeHTTP(w, req)
	resp := w.Result()
	b, _ := io.ReadAll(resp.Body)
	apitest.ValidateResponse(t, req, resp, b)
	return resp, b
}

func decode(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
	return m
}

// TestServeDocument checks the representations, content negotiation and
// conditional requests of GET /v1/openapi.json and GET /v1/skill.
func TestServeDocument(t *testing.T) {
	srv := newServer(t)
	cases := []struct {
		name, path, accept, wantType string
	}{
		{"openapi", "/v1/openapi.json", "", "application/json; charset=utf-8"},
		{"skill default", "/v1/skill", "", "application/json; charset=utf-8"},
		{"skill any", "/v1/skill", "*/*", "application/json; charset=utf-8"},
		{"skill Markdown", "/v1/skill", "text/markdown", "text/markdown; charset=utf-8"},
		{"skill Markdown preferred", "/v1/skill", "application/json;q=0.5, text/markdown", "text/markdown; charset=utf-8"},
		{"skill JSON preferred", "/v1/skill", "text/markdown;q=0.5, application/json", "application/json; charset=utf-8"},
		{"skill unacceptable", "/v1/skill", "image/png", "application/json; charset=utf-8"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			hdr := map[string]string{}
			if tc.accept != "" {
				hdr["Accept"] = tc.accept
			}
			resp, body := do(t, srv, "GET", tc.path, "", hdr, "")
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != tc.wantType {
				t.Fatalf("%d %q, want 200 %q", resp.StatusCode, resp.Header.Get("Content-Type"), tc.wantType)
			}
			if strings.HasPrefix(tc.wantType, "text/markdown") != strings.HasPrefix(string(body), "# cairn") {
				t.Fatalf("body does not match %s: %.40q", tc.wantType, body)
			}
			if tc.path == "/v1/skill" && resp.Header.Get("Vary") != "Accept" {
				t.Fatalf("Vary = %q", resp.Header.Get("Vary"))
			}
			etag := resp.Header.Get("ETag")
			hdr["If-None-Match"] = etag
			resp, body = do(t, srv, "GET", tc.path, "", hdr, "")
			if resp.StatusCode != http.StatusNotModified || len(body) != 0 || resp.Header.Get("ETag") != etag {
				t.Fatalf("If-None-Match %s: %d with %d bytes, want 304 and no body", etag, resp.StatusCode, len(body))
			}
			hdr["If-None-Match"] = `"other"`
			if resp, _ = do(t, srv, "GET", tc.path, "", hdr, ""); resp.StatusCode != 200 {
				t.Fatalf("stale If-None-Match: %d, want 200", resp.StatusCode)
			}
		})
	}
	t.Run("ETags differ by representation", func(t *testing.T) {
		a, _ := do(t, srv, "GET", "/v1/skill", "", nil, "")
		b, _ := do(t, srv, "GET", "/v1/skill", "", map[string]string{"Accept": "text/markdown"}, "")
		if a.Header.Get("ETag") == b.Header.Get("ETag") {
			t.Fatal("JSON and Markdown share an ETag")
		}
	})
	t.Run("served JSON is the embedded document", func(t *testing.T) {
		_, body := do(t, srv, "GET", "/v1/openapi.json", "", nil, "")
		if string(body) != string(api.OpenAPIDocument()) {
			t.Fatal("GET /v1/openapi.json differs from api.OpenAPIDocument()")
		}
	})
}
