package client

import (
	"context"
	"io"
	"net/http"
)

// Healthz reports liveness (healthz).
func (c *Client) Healthz(ctx context.Context) (Object, error) {
	var out Object
	return out, c.call(ctx, http.MethodGet, "/healthz", nil, &out, authNone)
}

// Readyz reports readiness (readyz).
func (c *Client) Readyz(ctx context.Context) (Object, error) {
	var out Object
	return out, c.call(ctx, http.MethodGet, "/readyz", nil, &out, authNone)
}

// Metrics returns the Prometheus exposition text (metrics); it needs the
// admin token.
func (c *Client) Metrics(ctx context.Context) (string, error) {
	return c.text(ctx, "/metrics", "", authAdmin)
}

// GetOpenAPI returns the OpenAPI document (getOpenAPI).
func (c *Client) GetOpenAPI(ctx context.Context) (Object, error) {
	var out Object
	return out, c.call(ctx, http.MethodGet, "/v1/openapi.json", nil, &out, authNone)
}

// GetSkill returns the skill document (getSkill): Markdown when markdown is
// true, else JSON text.
func (c *Client) GetSkill(ctx context.Context, markdown bool) (string, error) {
	accept := "application/json"
	if markdown {
		accept = "text/markdown"
	}
	return c.text(ctx, "/v1/skill", accept, authNone)
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
