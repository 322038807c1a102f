package client

import (
	"context"
	"net/http"
)

// Registration is a new agent with its one-time secrets.
type Registration struct {
	AgentID        string `json:"agentId"`
	DeveloperID    string `json:"developerId"`
	APIKey         string `json:"apiKey"`
	RotationSecret string `json:"rotationSecret"`
	AptosAddress   string `json:"aptosAddress"`
	CreditBalance  int64  `json:"creditBalance"`
}

// RegisterAgent registers a new agent and developer account
// (registerAgent); name may be empty.
func (c *Client) RegisterAgent(ctx context.Context, name string) (*Registration, error) {
	var body any
	if name != "" {
		body = map[string]string{"name": name}
	}
	var out Registration
	return ret(&out, c.call(ctx, http.MethodPost, "/v1/auth/agent-register", body, &out, authNone))
}

// GetSelf describes the calling agent (getSelf).
func (c *Client) GetSelf(ctx context.Context) (Object, error) {
	var out Object
	return out, c.call(ctx, http.MethodGet, "/v1/agents/self", nil, &out, authAgent)
}

// CreateAgent creates another agent of the caller's developer account
// (createAgent); name may be empty.
func (c *Client) CreateAgent(ctx context.Context, name string) (*Registration, error) {
	var body any
	if name != "" {
		body = map[string]string{"name": name}
	}
	var out Registration
	return ret(&out, c.call(ctx, http.MethodPost, "/v1/agents", body, &out, authAgent))
}

// RotateKey replaces the caller's API key (rotateKey). The client keeps
// using the old key: call WithAPIKey with the new one.
func (c *Client) RotateKey(ctx context.Context, rotationSecret string) (Object, error) {
	var out Object
	return out, c.call(ctx, http.MethodPost, "/v1/agents/self/rotate-key",
		map[string]string{"rotationSecret": rotationSecret}, &out, authAgent)
}

// RevokeAgent revokes an agent (revokeAgent, admin).
func (c *Client) RevokeAgent(ctx context.Context, agentID string) (Object, error) {
	var out Object
	return out, c.call(ctx, http.MethodPost, "/v1/admin/agents/"+esc(agentID)+"/revoke", nil, &out, authAdmin)
}
