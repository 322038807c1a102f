// Package client is a typed Go client for the cairn HTTP API. It depends on
// the standard library and package wire only: the bodies it sends and the
// results it returns are wire's types, which the server writes too.
//
// Every operation of the OpenAPI document (GET /v1/openapi.json) has a
// method named after its operationId. Failed calls return a *Error carrying
// the RFC 9457 problem document. GET and HEAD requests, and POSTs sent with
// an Idempotency-Key, are retried with exponential backoff on network
// errors, 429 (honouring Retry-After), 502, 503 and 504; nothing else is
// retried, so a charge is never repeated.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Client calls one cairn server. It is safe for concurrent use.
type Client struct {
	base       string
	apiKey     string
	adminToken string
	hc         *http.Client
	retries    int
	backoff    time.Duration
	maxWait    time.Duration
	strict     bool
}

// Option configures a Client.
type Option func(*Client)

// WithHTTPClient sets the HTTP client (default: http.DefaultClient).
func WithHTTPClient(hc *http.Client) Option { return func(c *Client) { c.hc = hc } }

// WithAdminToken sets the token the /v1/admin operations send.
func WithAdminToken(token string) Option { return func(c *Client) { c.adminToken = token } }

// WithRetries sets how many times a safe request is retried (default 3) and
// the first backoff (default 200ms, doubled each retry).
func WithRetries(n int, backoff time.Duration) Option {
	return func(c *Client) { c.retries, c.backoff = n, backoff }
}

// WithMaxRetryWait caps the wait a Retry-After header may ask for (default
// 30s); a longer wait is not taken and the 429 is returned.
func WithMaxRetryWait(d time.Duration) Option { return func(c *Client) { c.maxWait = d } }

// WithStrictDecoding makes a response member that the method's result type
// does not name a decoding error, so that a test notices when the server
// sends a field the client would drop. Off by default: a newer server may
// add fields.
func WithStrictDecoding() Option { return func(c *Client) { c.strict = true } }

// New returns a client for the server at baseURL (e.g.
// http://127.0.0.1:8080) authenticating with the agent API key apiKey
// (empty for public operations only).
func New(baseURL, apiKey string, opts ...Option) *Client {
	c := &Client{base: strings.TrimRight(baseURL, "/"), apiKey: apiKey, hc: http.DefaultClient,
		retries: 3, backoff: 200 * time.Millisecond, maxWait: 30 * time.Second}
	for _, o := range opts {
		o(c)
	}
	return c
}

// WithAPIKey returns a copy of the client that authenticates with key.
func (c *Client) WithAPIKey(key string) *Client {
	cp := *c
	cp.apiKey = key
	return &cp
}

// auth says which credential a request carries.
type auth int

const (
	authAgent auth = iota
	authAdmin
	authNone
)

// request is one API call.
type request struct {
	method, path string
	query        url.Values
	header       http.Header
	body         []byte
	contentType  string
	auth         auth
}

func (r *request) setHeader(k, v string) {
	if v == "" {
		return
	}
	if r.header == nil {
		r.header = http.Header{}
	}
	r.header.Set(k, v)
}

func jsonRequest(method, path string, in any) (*request, error) {
	r := &request{method: method, path: path}
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return nil, fmt.Errorf("cairn client: encode request: %w", err)
		}
		r.body, r.contentType = b, "application/json"
	}
	return r, nil
}

// retryable reports whether the request may be sent again: it has no
// side effect, or the server deduplicates it by its Idempotency-Key.
func (r *request) retryable() bool {
	return r.method == http.MethodGet || r.method == http.MethodHead || r.header.Get("Idempotency-Key") != ""
}

// send performs the request with retries. A response with a status of 400
// or more is returned as a *Error; the caller closes the body otherwise.
func (c *Client) send(ctx context.Context, r *request) (*http.Response, error) {
	u := c.base + r.path
	if len(r.query) > 0 {
		u += "?" + r.query.Encode()
	}
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, r.method, u, bytes.NewReader(r.body))
		if err != nil {
			return nil, err
		}
		if r.body == nil {
			req.Body, req.ContentLength = http.NoBody, 0
		}
		for k, v := range r.header {
			req.Header[k] = v
		}
		if r.contentType != "" {
			req.Header.Set("Content-Type", r.contentType)
		}
		switch r.auth {
		case authAgent:
			if c.apiKey != "" {
				req.Header.Set("Authorization", "Bearer "+c.apiKey)
			}
		case authAdmin:
			if c.adminToken != "" {
				req.Header.Set("Authorization", "Bearer "+c.adminToken)
			}
		}
		resp, err := c.hc.Do(req)
		wait, again := c.backoff<<attempt, attempt < c.retries && r.retryable()
		if err != nil {
			if !again || ctx.Err() != nil {
				return nil, err
			}
		} else {
			if resp.StatusCode < 400 {
				return resp, nil
			}
			perr := readError(resp)
			if !again || !retryStatus(resp.StatusCode) {
				return nil, perr
			}
			if perr.RetryAfter > 0 {
				if perr.RetryAfter > c.maxWait {
					return nil, perr
				}
				wait = perr.RetryAfter
			}
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}

func retryStatus(s int) bool {
	return s == http.StatusTooManyRequests || s == http.StatusBadGateway ||
		s == http.StatusServiceUnavailable || s == http.StatusGatewayTimeout
}

// do sends the request and decodes a JSON response into out (when not
// nil). It returns the response body.
func (c *Client) do(ctx context.Context, r *request, out any) ([]byte, error) {
	resp, err := c.send(ctx, r)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("cairn client: read %s %s: %w", r.method, r.path, err)
	}
	if out == nil || resp.StatusCode == http.StatusNotModified {
		return body, nil
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if c.strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(out); err != nil {
		return body, fmt.Errorf("cairn client: decode %s %s: %w", r.method, r.path, err)
	}
	return body, nil
}

// call is do for a JSON body.
func (c *Client) call(ctx context.Context, method, path string, in, out any, a auth) error {
	r, err := jsonRequest(method, path, in)
	if err != nil {
		return err
	}
	r.auth = a
	_, err = c.do(ctx, r, out)
	return err
}

// callHeader is call by the agent with one more header (skipped when the
// value is empty).
func (c *Client) callHeader(ctx context.Context, method, path string, in, out any, header, value string) error {
	r, err := jsonRequest(method, path, in)
	if err != nil {
		return err
	}
	r.setHeader(header, value)
	_, err = c.do(ctx, r, out)
	return err
}

// Error is a failed call: the server's RFC 9457 problem document.
type Error struct {
	Status    int    `json:"status"`
	Type      string `json:"type"`
	Title     string `json:"title"`
	Detail    string `json:"detail"`
	Instance  string `json:"instance"`
	Code      string `json:"code"`
	RequestID string `json:"requestId"`
	Field     string `json:"field,omitempty"`
	// Required and Available are the credits the operation needs and the
	// account holds (402 insufficient_credits).
	Required  *int64 `json:"required,omitempty"`
	Available *int64 `json:"available,omitempty"`
	Limit     *int64 `json:"limit,omitempty"`
	Policy    string `json:"policy,omitempty"`
	// RetryAfter is the Retry-After header (429, 503), zero when absent.
	RetryAfter time.Duration `json:"-"`
	// Problem is the whole problem document, with the members of particular
	// problems (e.g. credit on 409 already_credited).
	Problem json.RawMessage `json:"-"`
}

func (e *Error) Error() string {
	s := fmt.Sprintf("cairn: %d %s: %s", e.Status, e.Code, e.Detail)
	if e.RequestID != "" {
		s += " (request " + e.RequestID + ")"
	}
	return s
}

// IsCode reports whether err is a *Error with the code.
func IsCode(err error, code string) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}

func readError(resp *http.Response) *Error {
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	e := &Error{}
	if json.Unmarshal(raw, e) != nil || e.Code == "" {
		e = &Error{Code: "http_" + strconv.Itoa(resp.StatusCode), Detail: strings.TrimSpace(string(raw))}
	}
	if json.Valid(raw) {
		e.Problem = raw
	}
	e.Status = resp.StatusCode
	if e.RequestID == "" {
		e.RequestID = resp.Header.Get("X-Request-Id")
	}
	if ra := resp.Header.Get("Retry-After"); ra != "" {
		if n, err := strconv.Atoi(ra); err == nil && n >= 0 {
			e.RetryAfter = time.Duration(n) * time.Second
		} else if t, err := http.ParseTime(ra); err == nil {
			e.RetryAfter = max(time.Until(t), 0)
		}
	}
	return e
}

// Stream is a streamed response body (download, media stream, snapshot).
// The caller closes Body.
type Stream struct {
	Body          io.ReadCloser
	Status        int
	ContentType   string
	ContentLength int64
	ContentRange  string
	ETag          string
	LastModified  string
	Header        http.Header
}

// RangeOptions are the conditional and Range headers of a streamed read.
type RangeOptions struct {
	Range       string // e.g. "bytes=0-99"
	IfRange     string
	IfNoneMatch string
}

func (o RangeOptions) apply(r *request) {
	r.setHeader("Range", o.Range)
	r.setHeader("If-Range", o.IfRange)
	r.setHeader("If-None-Match", o.IfNoneMatch)
}

func (c *Client) stream(ctx context.Context, r *request) (*Stream, error) {
	resp, err := c.send(ctx, r)
	if err != nil {
		return nil, err
	}
	return &Stream{Body: resp.Body, Status: resp.StatusCode, ContentType: resp.Header.Get("Content-Type"),
		ContentLength: resp.ContentLength, ContentRange: resp.Header.Get("Content-Range"),
		ETag: resp.Header.Get("ETag"), LastModified: resp.Header.Get("Last-Modified"), Header: resp.Header}, nil
}

func esc(s string) string { return url.PathEscape(s) }

// query builds url.Values from pairs, skipping empty values.
func query(kv ...string) url.Values {
	q := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			q.Set(kv[i], kv[i+1])
		}
	}
	return q
}

func itoa(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}
