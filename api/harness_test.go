package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/account"
	"github.com/cairn-dev/cairn/api"
	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/billing"
	"github.com/cairn-dev/cairn/blob/fs"
	"github.com/cairn-dev/cairn/chain/aptos"
	"github.com/cairn-dev/cairn/compliance"
	"github.com/cairn-dev/cairn/media"
	"github.com/cairn-dev/cairn/memory"
	"github.com/cairn-dev/cairn/memory/vector"
	"github.com/cairn-dev/cairn/screening"
	"github.com/cairn-dev/cairn/store/pebble"
)

// liveServer is the front end over real components (Pebble and the fs blob
// store in a temporary directory) served on 127.0.0.1 by httptest, for the
// HTTP tests beside the handlers. Screening has no list loaded (its routes
// answer 503); deposits are off.
type liveServer struct {
	*api.Server
	base   string
	memory *memory.Service
}

// liveAdmin is the admin token of a liveServer.
const liveAdmin = "live-admin-token-0123456789abcdef"

func newLiveServer(t *testing.T, setup ...func(d *api.Deps, db *pebble.DB, blobs *fs.Store)) *liveServer {
	t.Helper()
	dir := t.TempDir()
	ctx := context.Background()
	db, err := pebble.Open(filepath.Join(dir, "store"), pebble.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	blobs, err := fs.New(filepath.Join(dir, "blobs"), fs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	idx, err := memory.NewIndex(filepath.Join(dir, "memory-index"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = idx.Close() })
	vecs := vector.New(vector.Config{})
	t.Cleanup(vecs.Close)
	clock := cairn.SystemClock{}
	mem := &memory.Service{Clock: clock, Store: db, Audit: db, Blobs: blobs, Index: idx, Vectors: vecs, Secrets: &memory.Secrets{}}
	if _, err := mem.Rebuild(ctx); err != nil {
		t.Fatal(err)
	}
	hd, err := aptos.NewHD("shoot island position soft burden budget tooth cruel issue economy destroy above", "mainnet")
	if err != nil {
		t.Fatal(err)
	}
	pricing, err := billing.NewPricing(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	cursors := cairn.NewCursors(bytes.Repeat([]byte{7}, 32))
	ledger := &billing.Ledger{Clock: clock, Store: db, Cursors: cursors}
	logger := slog.New(slog.NewTextHandler(testWriter{t}, nil))
	d := api.Deps{
		Health:      db,
		Accounts:    &account.Service{Clock: clock, Store: db, Deposits: hd, StarterCredits: 100, CreditsPerAPT: 1000},
		Tokens:      &account.Tokens{Clock: clock, Secret: bytes.Repeat([]byte{9}, 32)},
		Pricing:     pricing,
		Ledger:      ledger,
		Media:       &media.Service{Clock: clock, Store: db, Blobs: blobs},
		Memory:      mem,
		Compliance:  &compliance.Service{Clock: clock, Screening: &screening.Holder{}, Ready: func() bool { return false }, Screenings: db, Ledger: ledger, Blobs: blobs, Logger: logger},
		Reports:     &compliance.Reports{Clock: clock, Store: db, Accounts: db, Ledger: db, Audit: db, Logger: logger},
		Idempotency: db,
		Settled:     db,
		RateLimits:  db,
		Cursors:     cursors,
		Clock:       clock,
		Logger:      logger,
		Limits:      api.DefaultLimits(),
		AdminToken:  liveAdmin,
	}
	for _, f := range setup {
		f(&d, db, blobs)
	}
	s, err := api.New(d)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s.Handler())
	t.Cleanup(hs.Close)
	return &liveServer{Server: s, base: hs.URL, memory: mem}
}

// reply is a response read whole, its JSON body decoded when it has one.
type reply struct {
	Status int
	Header http.Header
	Body   []byte
	JSON   map[string]any
}

func (r *reply) str(k string) string { s, _ := r.JSON[k].(string); return s }

func (r *reply) num(k string) float64 { f, _ := r.JSON[k].(float64); return f }

// want fails the test unless the response has the status (and, for a
// problem document, the code when one is given).
func (r *reply) want(t *testing.T, status int, code ...string) *reply {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d: %s", r.Status, status, r.Body)
	}
	if len(code) > 0 && r.str("code") != code[0] {
		t.Fatalf("code %q, want %q: %s", r.str("code"), code[0], r.Body)
	}
	return r
}

// do sends a request (a string body verbatim, anything else as JSON)
// with the bearer token and header pairs, and checks the answer against
// the OpenAPI document.
func (ls *liveServer) do(t *testing.T, method, path, token string, body any, hdr ...string) *reply {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, ls.base+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	r := &reply{Status: resp.StatusCode, Header: resp.Header, Body: raw}
	if strings.Contains(resp.Header.Get("Content-Type"), "json") {
		_ = json.Unmarshal(raw, &r.JSON)
	}
	apitest.ValidateResponse(t, req, resp, raw)
	return r
}

// register registers an agent and returns its API key.
func (ls *liveServer) register(t *testing.T) (key string, reg *reply) {
	t.Helper()
	reg = ls.do(t, http.MethodPost, "/v1/auth/agent-register", "", map[string]any{"name": "tester"}).want(t, http.StatusCreated)
	return reg.str("apiKey"), reg
}

// balance is the calling agent's credit balance.
func (ls *liveServer) balance(t *testing.T, key string) float64 {
	t.Helper()
	return ls.do(t, http.MethodGet, "/v1/billing/balance", key, nil).want(t, http.StatusOK).num("creditBalance")
}

// TestLiveServer checks the harness: register, store, read.
func TestLiveServer(t *testing.T) {
	ls := newLiveServer(t)
	key, _ := ls.register(t)
	created := ls.do(t, http.MethodPost, "/v1/memory", key, map[string]any{"key": "a/b", "content": "x"}).want(t, http.StatusCreated)
	ls.do(t, http.MethodGet, "/v1/memory/"+created.str("id"), key, nil).want(t, http.StatusOK)
	if got := ls.balance(t, key); got != 94 {
		t.Fatalf("balance %v, want 94", got)
	}
}

// testWriter sends the server's log lines to the test's log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}
