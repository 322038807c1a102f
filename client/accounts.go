package client

import (
	"context"
	"net/http"
	"time"
)

// DepositInfo says where and how to top up the credits.
type DepositInfo struct {
	Address         string   `json:"address"`
	SupportedTokens []string `json:"supportedTokens"`
	Network         string   `json:"network"`
	Note            string   `json:"note"`
}

// Registration is a new agent with its one-time secrets.
type Registration struct {
	AgentID        string      `json:"agentId"`
	DeveloperID    string      `json:"developerId"`
	Name           string      `json:"name"`
	APIKey         string      `json:"apiKey"`
	RotationSecret string      `json:"rotationSecret"`
	AptosAddress   string      `json:"aptosAddress"`
	CreditBalance  int64       `json:"creditBalance"`
	DepositInfo    DepositInfo `json:"depositInfo"`
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

// Agent is an agent's public record.
type Agent struct {
	AgentID      string    `json:"agentId"`
	DeveloperID  string    `json:"developerId"`
	Name         string    `json:"name"`
	AptosAddress string    `json:"aptosAddress"`
	CreatedAt    time.Time `json:"createdAt"`
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
		body = map[string]string{"name": name}
	}
	var out Registration
	return ret(&out, c.call(ctx, http.MethodPost, "/v1/agents", body, &out, authAgent))
}

// Rotation is the new key pair of rotateKey, shown once.
type Rotation struct {
	Message        string `json:"message"`
	APIKey         string `json:"apiKey"`
	RotationSecret string `json:"rotationSecret"`
	AgentID        string `json:"agentId"`
	AgentName      string `json:"agentName"`
}

// RotateKey replaces the caller's API key and rotation secret (rotateKey).
// The client keeps using the old key: call WithAPIKey with the new one.
func (c *Client) RotateKey(ctx context.Context, rotationSecret string) (*Rotation, error) {
	var out Rotation
	return ret(&out, c.call(ctx, http.MethodPost, "/v1/agents/self/rotate-key",
		map[string]string{"rotationSecret": rotationSecret}, &out, authAgent))
}

// Revocation is the result of revokeAgent: RevokedAt is the first
// revocation's time.
type Revocation struct {
	AgentID   string    `json:"agentId"`
	Revoked   bool      `json:"revoked"`
	RevokedAt time.Time `json:"revokedAt"`
}

// RevokeAgent revokes an agent (revokeAgent, admin).
func (c *Client) RevokeAgent(ctx context.Context, agentID string) (*Revocation, error) {
	var out Revocation
	return ret(&out, c.call(ctx, http.MethodPost, "/v1/admin/agents/"+esc(agentID)+"/revoke", nil, &out, authAdmin))
}
