package api

import (
	"net/http"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/account"
	"github.com/cairn-dev/cairn/billing"
	"github.com/gin-gonic/gin"
)

// accountRoutes registers the agent account endpoints: registration (no
// authentication, limited per client network and overall), the agent's
// own record, agent creation and key rotation.
func (s *Server) accountRoutes(v1, agent *gin.RouterGroup) {
	v1.POST("/auth/agent-register",
		s.rateLimit(policy{name: "registrations", l: s.registerLimit, key: clientNet, when: always},
			policy{name: "registrations-all", l: s.registerAllLimit, key: everyone, when: always}),
		strictBody[nameRequest](), h(s.register))
	agent.GET("/agents/self", h(s.self))
	agent.POST("/agents", strictBody[nameRequest](), s.paid(billing.OpAgentCreate), h(s.createAgent))
	// Rotation counts attempts per client IP before anything else, so that
	// guessing secrets is bounded whatever the key.
	v1.POST("/agents/self/rotate-key",
		s.rateLimit(policy{name: "rotations", l: s.rotateLimit, key: clientNet, when: always}),
		s.agentAuth, s.limited(), strictBody[rotateRequest](), h(s.rotateKey))
}

// registrationResponse is the record of spec 2.3.
type registrationResponse struct {
	AgentID        string              `json:"agentId"`
	DeveloperID    string              `json:"developerId"`
	Name           string              `json:"name"`
	APIKey         string              `json:"apiKey"`
	RotationSecret string              `json:"rotationSecret"`
	CreditBalance  int64               `json:"creditBalance"`
	AptosAddress   string              `json:"aptosAddress"`
	DepositInfo    account.DepositInfo `json:"depositInfo"`
}

type nameRequest struct {
	Name string `json:"name"`
}

// register is POST /v1/auth/agent-register (spec 4.16).
func (s *Server) register(c *gin.Context) error {
	var req nameRequest
	if err := bindJSON(c, &req, true); err != nil {
		return err
	}
	r, err := s.Accounts.Register(c.Request.Context(), req.Name, requestID(c), clientIP(c))
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusCreated, registrationResponse{
		AgentID: r.Agent.ID, DeveloperID: r.Developer.ID, Name: r.Agent.Name,
		APIKey: r.Credentials.APIKey, RotationSecret: r.Credentials.RotationSecret,
		CreditBalance: r.Developer.Balance, AptosAddress: r.Agent.DepositAddress,
		DepositInfo: s.Accounts.DepositInfo(r.Agent),
	})
	return nil
}

// createAgent is POST /v1/agents: a new agent under the caller's developer
// account, paid with agent.create.
func (s *Server) createAgent(c *gin.Context) error {
	var req nameRequest
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
	writeJSON(c, http.StatusCreated, registrationResponse{
		AgentID: a.ID, DeveloperID: a.DeveloperID, Name: a.Name,
		APIKey: creds.APIKey, RotationSecret: creds.RotationSecret,
		CreditBalance: bal, AptosAddress: a.DepositAddress, DepositInfo: s.Accounts.DepositInfo(a),
	})
	return nil
}

// self is GET /v1/agents/self: who the key belongs to.
func (s *Server) self(c *gin.Context) error {
	a := agentOf(c)
	writeJSON(c, http.StatusOK, gin.H{
		"agentId": a.ID, "developerId": a.DeveloperID, "name": a.Name,
		"aptosAddress": a.DepositAddress, "createdAt": timestamp(a.CreatedAt),
	})
	return nil
}

type rotateRequest struct {
	RotationSecret *string `json:"rotationSecret"`
}

// rotateKey is POST /v1/agents/self/rotate-key (spec 4.17).
func (s *Server) rotateKey(c *gin.Context) error {
	var req rotateRequest
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
	writeJSON(c, http.StatusOK, gin.H{
		"message":        "API key and rotation secret rotated. The previous pair no longer works; store these now, they are not shown again.",
		"apiKey":         r.Credentials.APIKey,
		"rotationSecret": r.Credentials.RotationSecret,
		"agentId":        r.Agent.ID,
		"agentName":      r.Agent.Name,
	})
	return nil
}
