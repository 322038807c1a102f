package account

import (
	"context"
	"strings"

	"github.com/cairn-dev/cairn"
)

// Authenticate returns the agent whose API key is key. A missing, malformed
// or unknown key is EUNAUTHORIZED; a revoked agent is EFORBIDDEN.
func (s *Service) Authenticate(ctx context.Context, key string) (*cairn.Agent, error) {
	if !LooksLikeKey(key) {
		return nil, cairn.Errorf(cairn.EUNAUTHORIZED, "Missing or invalid API key.")
	}
	h := HashSecret(key)
	cache, now := s.auth(), s.Clock.Now()
	var epoch uint64
	if cache != nil {
		var a cairn.Agent
		var hit bool
		if a, hit, epoch = cache.Get(string(h), now); hit {
			return checkAgent(&a, h)
		}
	}
	a, err := s.Store.AgentByKeyHash(ctx, h)
	if cairn.IsCode(err, cairn.ENOTFOUND) && strings.HasPrefix(key, SecretPrefix) {
		return nil, cairn.Errorf(cairn.EUNAUTHORIZED, "This is a rotation secret (sk_live_rs_...), not an API key: send the apiKey as the bearer token. "+
			"The rotation secret goes only in the body of POST /v1/agents/self/rotate-key.")
	} else if cairn.IsCode(err, cairn.ENOTFOUND) {
		return nil, cairn.Errorf(cairn.EUNAUTHORIZED, "Missing or invalid API key.")
	} else if err != nil {
		return nil, err
	}
	if cache != nil && equalHash(a.KeyHash, h) {
		cache.Put(string(h), *a, epoch, now)
	}
	return checkAgent(a, h)
}

// checkAgent accepts agent a for a key of digest h: the index lookup is by
// digest, so the stored digest is confirmed in constant time; a revoked
// agent is EFORBIDDEN.
func checkAgent(a *cairn.Agent, h []byte) (*cairn.Agent, error) {
	if !equalHash(a.KeyHash, h) {
		return nil, cairn.Errorf(cairn.EUNAUTHORIZED, "Missing or invalid API key.")
	}
	if a.Revoked {
		return nil, cairn.Errorf(cairn.EFORBIDDEN, "This agent has been revoked.")
	}
	return a, nil
}

// Rotation is the outcome of a key rotation (spec 4.17).
type Rotation struct {
	Agent       *cairn.Agent
	Credentials Credentials
}

// Rotate replaces the agent's API key and rotation secret when secret is
// its current rotation secret. The old pair stops working in the same
// commit, which also writes the audit entry.
func (s *Service) Rotate(ctx context.Context, agentID, secret, requestID, ip string) (*Rotation, error) {
	if secret == "" {
		return nil, cairn.Errorf(cairn.EINVALID, "rotationSecret is required.")
	}
	given := HashSecret(secret)
	key, keyHash := newSecret()
	newSecretText, newSecretHash := newRotationSecret()
	now := s.Clock.Now()
	audit := &cairn.AuditEntry{AgentID: agentID, Action: cairn.AuditRotateKey, Resource: agentID, RequestID: requestID, IP: ip, CreatedAt: now}
	defer s.forget(agentID) // also after a failure: the commit may have happened
	a, err := s.Store.UpdateAgent(ctx, agentID, func(a *cairn.Agent) error {
		if a.Revoked {
			return cairn.Errorf(cairn.EFORBIDDEN, "This agent has been revoked.")
		}
		if len(a.SecretHash) == 0 {
			return cairn.Errorf(cairn.EFORBIDDEN, "No rotation secret is configured for this agent.")
		}
		if !equalHash(a.SecretHash, given) {
			return cairn.Errorf(cairn.EUNAUTHORIZED, "Invalid rotation secret.")
		}
		a.KeyHash, a.SecretHash, a.RotatedAt = keyHash, newSecretHash, now
		return nil
	}, audit)
	if err != nil {
		return nil, err
	}
	return &Rotation{Agent: a, Credentials: Credentials{APIKey: key, RotationSecret: newSecretText}}, nil
}

// Revoke marks the agent revoked: its key then gets EFORBIDDEN. Revoking a
// revoked agent is a no-op.
func (s *Service) Revoke(ctx context.Context, agentID, requestID string) (*cairn.Agent, error) {
	if !cairn.ValidID(agentID) {
		return nil, cairn.Errorf(cairn.ENOTFOUND, "Agent not found.")
	}
	now := s.Clock.Now()
	audit := &cairn.AuditEntry{AgentID: agentID, Action: cairn.AuditRevoke, Resource: agentID, RequestID: requestID, CreatedAt: now}
	defer s.forget(agentID)
	return s.Store.UpdateAgent(ctx, agentID, func(a *cairn.Agent) error {
		if !a.Revoked {
			a.Revoked, a.RevokedAt = true, now
		}
		return nil
	}, audit)
}
