package apitest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Client sends the requests of a test to a running service at URL and
// checks every response against the OpenAPI document.
//
// Its helpers take the calling test's t: a subtest's failure is reported
// by that subtest. Helpers that fail the test (Do, Send, Register, ...)
// run on the test's own goroutine; other goroutines use Try, which
// reports through t.Errorf and returns transport errors.
type Client struct {
	URL string
}

// Response is a response read whole, its JSON body decoded when it has
// one.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
	JSON   map[string]any
}

// Str is the string member k of the JSON body ("" when absent).
func (r *Response) Str(k string) string {
	s, _ := r.JSON[k].(string)
	return s
}

// Num is the number member k of the JSON body (0 when absent).
func (r *Response) Num(k string) float64 {
	f, _ := r.JSON[k].(float64)
	return f
}

// Must fails the test unless the response has the status.
func (r *Response) Must(t testing.TB, status int) *Response {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d; body: %s", r.Status, status, r.Body)
	}
	return r
}

// Problem fails unless the response is a problem document with the
// status and code, naming the request id of its X-Request-Id header.
func (r *Response) Problem(t testing.TB, status int, code string) *Response {
	t.Helper()
	r.Must(t, status)
	if ct := r.Header.Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("Content-Type %q, want application/problem+json; body %s", ct, r.Body)
	}
	if r.Str("code") != code || r.Num("status") != float64(status) || r.Str("requestId") == "" {
		t.Fatalf("problem %s, want code %q", r.Body, code)
	}
	if r.Str("requestId") != r.Header.Get("X-Request-Id") {
		t.Fatalf("requestId %q differs from X-Request-Id %q", r.Str("requestId"), r.Header.Get("X-Request-Id"))
	}
	return r
}

// Do sends a request with an optional bearer token, JSON body (a string
// or []byte is sent verbatim) and header pairs, and validates the response
// against the OpenAPI document.
func (c *Client) Do(t testing.TB, method, path, token string, body any, hdr ...string) *Response {
	t.Helper()
	r, err := c.Try(t, method, path, token, body, hdr...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Try is Do for goroutines other than the test's: it returns the
// transport error instead of failing the test, and reports a response the
// OpenAPI document does not allow through t.Errorf.
func (c *Client) Try(t testing.TB, method, path, token string, body any, hdr ...string) (*Response, error) {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, c.URL+path, rd)
	if err != nil {
		return nil, err
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
	return c.RoundTrip(t, req)
}

// Send sends a prepared request and validates the response against the
// OpenAPI document.
func (c *Client) Send(t testing.TB, req *http.Request) *Response {
	t.Helper()
	r, err := c.RoundTrip(t, req)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// RoundTrip is Send returning the transport error (see Try).
func (c *Client) RoundTrip(t testing.TB, req *http.Request) (*Response, error) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", req.Method, req.URL.Path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("%s %s: read body: %w", req.Method, req.URL.Path, err)
	}
	r := &Response{Status: resp.StatusCode, Header: resp.Header, Body: raw}
	if len(raw) > 0 && strings.Contains(resp.Header.Get("Content-Type"), "json") {
		_ = json.Unmarshal(raw, &r.JSON)
	}
	ValidateResponse(t, req, resp, raw)
	return r, nil
}

// Race sends n requests at once from goroutines of their own (send(i)
// makes the i-th, with Try) and returns the responses in order; a
// transport error fails the test once all are done.
func Race(t testing.TB, n int, send func(i int) (*Response, error)) []*Response {
	t.Helper()
	out := make([]*Response, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r, err := send(i)
			if err != nil {
				t.Error(err)
				return
			}
			out[i] = r
		})
	}
	wg.Wait()
	if slices.Contains(out, nil) {
		t.FailNow()
	}
	return out
}

// Agent is a registered agent as the tests see it.
type Agent struct {
	ID, DeveloperID, Key, Secret, Address string
}

// Register registers an agent (named when name is not "").
func (c *Client) Register(t testing.TB, name string) Agent {
	t.Helper()
	var body any
	if name != "" {
		body = map[string]any{"name": name}
	}
	r := c.Do(t, "POST", "/v1/auth/agent-register", "", body).Must(t, 201)
	return Agent{ID: r.Str("agentId"), DeveloperID: r.Str("developerId"), Key: r.Str("apiKey"),
		Secret: r.Str("rotationSecret"), Address: r.Str("aptosAddress")}
}

// Balance is the credit balance of the key's account.
func (c *Client) Balance(t testing.TB, key string) int {
	t.Helper()
	r := c.Do(t, "GET", "/v1/billing/balance", key, nil).Must(t, 200)
	return int(r.Num("creditBalance"))
}

// RegisterEstablished registers an agent whose account is established
// for community reports: an administrator granted it credits.
func (c *Client) RegisterEstablished(t testing.TB) Agent {
	t.Helper()
	a := c.Register(t, "")
	c.Do(t, "POST", "/v1/admin/credits", AdminToken, map[string]any{"developerId": a.DeveloperID, "amount": 1,
		"reason": "established"}).Must(t, 200)
	return a
}

// NewAgent registers an agent topped up to credits: a subtest that counts
// credits or records takes its own, so that it runs alone as it runs
// after its siblings.
func (c *Client) NewAgent(t testing.TB, credits int) Agent {
	t.Helper()
	a := c.Register(t, "mem")
	c.TopUp(t, a, credits)
	return a
}

// TopUp sets the agent's balance to credits.
func (c *Client) TopUp(t testing.TB, a Agent, credits int) {
	t.Helper()
	if d := credits - c.Balance(t, a.Key); d != 0 {
		c.Do(t, "POST", "/v1/admin/credits", AdminToken, map[string]any{"developerId": a.DeveloperID, "amount": d, "reason": "test"}).Must(t, 200)
	}
}

// WantBalance fails unless the agent's balance is want.
func (c *Client) WantBalance(t testing.TB, a Agent, want int) {
	t.Helper()
	if got := c.Balance(t, a.Key); got != want {
		t.Fatalf("balance %d, want %d", got, want)
	}
}

// LedgerSum adds up every entry of the account's ledger, page by page, and
// returns the deposits among them.
func (c *Client) LedgerSum(t testing.TB, key string) (sum int64, deposits []map[string]any) {
	t.Helper()
	cursor := ""
	for {
		r := c.Do(t, "GET", "/v1/billing/transactions?limit=100"+cursor, key, nil).Must(t, 200)
		for _, tx := range r.JSON["transactions"].([]any) {
			m := tx.(map[string]any)
			sum += int64(m["amount"].(float64))
			if m["kind"] == "deposit" {
				deposits = append(deposits, m)
			}
		}
		if r.JSON["nextCursor"] == nil {
			return sum, deposits
		}
		cursor = "&cursor=" + r.Str("nextCursor")
	}
}
