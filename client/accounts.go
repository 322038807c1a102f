package client

import (
	"context"
	"net/http"

	"github.com/cairn-dev/cairn/wire"
)

// RegisterAgent registers a new agent and developer account
// (registerAgent); name may be empty.
func (c *Client) RegisterAgent(ctx context.Context, name string) (*Registration, error) {
	return callFor[Registration](ctx, c, http.MethodPost, "/v1/auth/agent-register", nameBody(name), authNone)
}

// GetSelf describes the calling agent (getSelf).
func (c *Client) GetSelf(ctx context.Context) (*Agent, error) {
	return callFor[Agent](ctx, c, http.MethodGet, "/v1/agents/self", nil, authAgent)
}

// CreateAgent creates another agent of the caller's developer account
// (createAgent); name may be empty.
func (c *Client) CreateAgent(ctx context.Context, name string) (*Registration, error) {
	return callFor[Registration](ctx, c, http.MethodPost, "/v1/agents", nameBody(name), authAgent)
}

// RotateKey replaces the caller's API key and rotation secret (rotateKey).
// The client keeps using the old key: call WithAPIKey with the new one.
func (c *Client) RotateKey(ctx context.Context, rotationSecret string) (*Rotation, error) {
	return callFor[Rotation](ctx, c, http.MethodPost, "/v1/agents/self/rotate-key",
		wire.RotateRequest{RotationSecret: &rotationSecret}, authAgent)
}

// RevokeAgent revokes an agent (revokeAgent, admin).
func (c *Client) RevokeAgent(ctx context.Context, agentID string) (*Revocation, error) {
	return callFor[Revocation](ctx, c, http.MethodPost, "/v1/admin/agents/"+esc(agentID)+"/revoke", nil, authAdmin)
}

// GetAdminAgent looks any agent up by id, revoked or not, with its
// developer's balance (getAdminAgent); it needs the admin token.
func (c *Client) GetAdminAgent(ctx context.Context, agentID string) (*AdminAgent, error) {
	return callFor[AdminAgent](ctx, c, http.MethodGet, "/v1/admin/agents/"+esc(agentID), nil, authAdmin)
}

// nameBody is the body of a request that may name an agent: none without a
// name.
func nameBody(name string) any {
	if name == "" {
		return nil
	}
	return wire.NameRequest{Name: name}
}
