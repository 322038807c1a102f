package api

import (
	"net/http"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/account"
	"github.com/cairn-dev/cairn/billing"
	"github.com/cairn-dev/cairn/wire"
	"github.com/gin-gonic/gin"
)

// accountRoutes registers the agent account endpoints: registration (no
// authentication, limited per client network and overall), the agent's
// own record, agent creation and key rotation.
func (s *Server) accountRoutes(v1, agent *gin.RouterGroup) {
	v1.POST("/auth/agent-register",
		s.rateLimit(policy{name: "registrations", l: s.registerLimit, key: clientNet, when: always},
			policy{name: "registrations-all", l: s.registerAllLimit, key: everyone, when: always}),
		strictBody[wire.NameRequest](), h(s.register))
	agent.GET("/agents/self", h(s.self))
	agent.POST("/agents", strictBody[wire.NameRequest](), s.paid(billing.OpAgentCreate), h(s.createAgent))
	// Rotation counts attempts per client IP before anything else, so that
	// guessing secrets is bounded whatever the key.
	v1.POST("/agents/self/rotate-key",
		s.rateLimit(policy{name: "rotations", l: s.rotateLimit, key: clientNet, when: always}),
		s.agentAuth, s.limited(), strictBody[wire.RotateRequest](), h(s.rotateKey))
}

// register is POST /v1/auth/agent-register (spec 4.16).
func (s *Server) register(c *gin.Context) error {
	var req wire.NameRequest
	if err := bindJSON(c, &req, true); err != nil {
		return err
	}
	r, err := s.Accounts.Register(c.Request.Context(), req.Name, requestID(c), clientIP(c))
	if err != nil {
		return err
	}
	s.writeRegistration(c, r.Agent, r.Credentials, r.Developer.Balance)
	return nil
}

// writeRegistration answers the creation of agent a: its credentials,
// shown once, its account's balance and where to deposit.
func (s *Server) writeRegistration(c *gin.Context, a *cairn.Agent, creds account.Credentials, balance int64) {
	writeJSON(c, http.StatusCreated, wire.Registration{
		AgentID: a.ID, DeveloperID: a.DeveloperID, Name: a.Name,
		APIKey: creds.APIKey, RotationSecret: creds.RotationSecret,
		CreditBalance: balance, AptosAddress: a.DepositAddress, DepositInfo: s.Accounts.DepositInfo(a),
	})
}

// createAgent is POST /v1/agents: a new agent under the caller's developer
// account, paid with agent.create.
func (s *Server) createAgent(c *gin.Context) error {
	var req wire.NameRequest
	if err := bindJSON(c, &req, true); err != nil {
		return err
	}
	parent := agentOf(c)
	a, creds, err := s.Accounts.CreateAgent(c.Request.Context(), parent, req.Name, requestID(c), clientIP(c))
	if err != nil {
		return err
	}
	bal, err := s.Ledger.Balance(c.Request.Context(), a.DeveloperID)
	if err != nil {
		return err
	}
	s.writeRegistration(c, a, creds, bal)
	return nil
}

// self is GET /v1/agents/self: who the key belongs to.
func (s *Server) self(c *gin.Context) error {
	a := agentOf(c)
	writeJSON(c, http.StatusOK, wire.Agent{
		AgentID: a.ID, DeveloperID: a.DeveloperID, Name: a.Name,
		AptosAddress: a.DepositAddress, CreatedAt: wire.At(a.CreatedAt),
	})
	return nil
}

// rotateKey is POST /v1/agents/self/rotate-key (spec 4.17).
func (s *Server) rotateKey(c *gin.Context) error {
	var req wire.RotateRequest
	if err := bindJSON(c, &req, true); err != nil {
		return err
	}
	if req.RotationSecret == nil || *req.RotationSecret == "" {
		return cairn.Errorf(cairn.EINVALID, "rotationSecret is required.").With("field", "rotationSecret")
	}
	r, err := s.Accounts.Rotate(c.Request.Context(), agentOf(c).ID, *req.RotationSecret, requestID(c), clientIP(c))
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, wire.Rotation{
		Message:        "API key and rotation secret rotated. The previous pair no longer works; store these now, they are not shown again.",
		APIKey:         r.Credentials.APIKey,
		RotationSecret: r.Credentials.RotationSecret,
		AgentID:        r.Agent.ID,
		AgentName:      r.Agent.Name,
	})
	return nil
}
