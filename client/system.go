package client

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// Healthz reports liveness (healthz).
func (c *Client) Healthz(ctx context.Context) (*Status, error) {
	return callFor[Status](ctx, c, http.MethodGet, "/healthz", nil, authNone)
}

// Readyz reports readiness (readyz): a *Error with status 503 when the
// store does not answer.
func (c *Client) Readyz(ctx context.Context) (*Status, error) {
	return callFor[Status](ctx, c, http.MethodGet, "/readyz", nil, authNone)
}

// Metrics returns the Prometheus exposition text (metrics); it needs the
// admin token.
func (c *Client) Metrics(ctx context.Context) (string, error) {
	return c.text(ctx, "/metrics", "", authAdmin)
}

// GetOpenAPI returns the OpenAPI 3.1 document as JSON (getOpenAPI), for an
// OpenAPI library to read.
func (c *Client) GetOpenAPI(ctx context.Context) (json.RawMessage, error) {
	body, err := c.do(ctx, &request{method: http.MethodGet, path: "/v1/openapi.json", auth: authNone}, nil)
	if err != nil {
		return nil, err
	}
	if !json.Valid(body) {
		return nil, fmt.Errorf("cairn client: GET /v1/openapi.json: the document is not JSON")
	}
	return body, nil
}

// GetSkill returns the short guide for agents (getSkill): Markdown when
// markdown is true, else JSON text.
func (c *Client) GetSkill(ctx context.Context, markdown bool) (string, error) {
	return c.text(ctx, "/v1/skill", skillAccept(markdown), authNone)
}

// GetFullSkill returns the full reference of every endpoint (getSkill with
// full=true): Markdown when markdown is true, else JSON text.
func (c *Client) GetFullSkill(ctx context.Context, markdown bool) (string, error) {
	return c.text(ctx, "/v1/skill?full=true", skillAccept(markdown), authNone)
}

func skillAccept(markdown bool) string {
	if markdown {
		return "text/markdown"
	}
	return "application/json"
}

func (c *Client) text(ctx context.Context, path, accept string, a auth) (string, error) {
	r := &request{method: http.MethodGet, path: path, auth: a}
	r.setHeader("Accept", accept)
	s, err := c.stream(ctx, r)
	if err != nil {
		return "", err
	}
	defer s.Body.Close()
	b, err := io.ReadAll(s.Body)
	return string(b), err
}
