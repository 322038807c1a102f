package client

import (
	"context"
	"net/http"

	"github.com/cairn-dev/cairn/wire"
)

// RegisterAgent registers a new agent and developer account
// (registerAgent); name may be empty.
func (c *Client) RegisterAgent(ctx context.Context, name string) (*Registration, error) {
	var body any
	if name != "" {
		body = wire.NameRequest{Name: name}
	}
	var out Registration
	return ret(&out, c.call(ctx, http.MethodPost, "/v1/auth/agent-register", body, &out, authNone))
}

// GetSelf describes the calling agent (getSelf).
func (c *Client) GetSelf(ctx context.Context) (*Agent, error) {
	var out Agent
	return ret(&out, c.call(ctx, http.MethodGet, "/v1/agents/self", nil, &out, authAgent))
}

// CreateAgent creates another agent of the caller's developer account
// (createAgent); name may be empty.
func (c *Client) CreateAgent(ctx context.Context, name string) (*Registration, error) {
	var body any
	if name != "" {
		body = wire.NameRequest{Name: name}
	}
	var out Registration
	return ret(&out, c.call(ctx, http.MethodPost, "/v1/agents", body, &out, authAgent))
}

// RotateKey replaces the caller's API key and rotation secret (rotateKey).
// The client keeps using the old key: call WithAPIKey with the new one.
func (c *Client) RotateKey(ctx context.Context, rotationSecret string) (*Rotation, error) {
	var out Rotation
	return ret(&out, c.call(ctx, http.MethodPost, "/v1/agents/self/rotate-key",
		wire.RotateRequest{RotationSecret: &rotationSecret}, &out, authAgent))
}

// RevokeAgent revokes an agent (revokeAgent, admin).
func (c *Client) RevokeAgent(ctx context.Context, agentID string) (*Revocation, error) {
	var out Revocation
	return ret(&out, c.call(ctx, http.MethodPost, "/v1/admin/agents/"+esc(agentID)+"/revoke", nil, &out, authAdmin))
}

// GetAdminAgent looks any agent up by id, revoked or not, with its
// developer's balance (getAdminAgent); it needs the admin token.
func (c *Client) GetAdminAgent(ctx context.Context, agentID string) (*AdminAgent, error) {
	var out AdminAgent
	return ret(&out, c.call(ctx, http.MethodGet, "/v1/admin/agents/"+esc(agentID), nil, &out, authAdmin))
}
