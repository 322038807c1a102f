package api

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"strings"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/account"
	"github.com/gin-gonic/gin"
)

const principalKey = "cairn.principal"

// principal is who a request acts for: an agent (API key) or a developer
// (JWT, where the route allows it). Billing always goes to DeveloperID.
type principal struct {
	Agent       *cairn.Agent // nil for a developer token
	DeveloperID string
	// Credential identifies the credential for per-key rate limits: the
	// hex SHA-256 of the key or token, never the secret itself.
	Credential string
}

func principalOf(c *gin.Context) *principal {
	p, _ := c.Get(principalKey)
	pr, _ := p.(*principal)
	return pr
}

func agentOf(c *gin.Context) *cairn.Agent { return principalOf(c).Agent }

func bearer(c *gin.Context) (string, bool) {
	v := c.GetHeader("Authorization")
	if len(v) < 7 || !strings.EqualFold(v[:7], "bearer ") {
		return "", false
	}
	tok := strings.TrimSpace(v[7:])
	return tok, tok != ""
}

func credentialID(secret string) string {
	h := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(h[:16])
}

// agentAuth requires an agent API key.
func (s *Server) agentAuth(c *gin.Context) {
	tok, ok := bearer(c)
	if !ok {
		writeError(c, cairn.Errorf(cairn.EUNAUTHORIZED, "Missing API key: send Authorization: Bearer <key>."))
		return
	}
	if !account.LooksLikeKey(tok) && strings.Count(tok, ".") == 2 {
		writeError(c, cairn.Errorf(cairn.EUNAUTHORIZED, "This route wants an agent API key (sk_live_...), and this is a developer token (JWT), "+
			"which only the account routes (/v1/billing/balance, /v1/billing/transactions) and screening accept. "+
			"Register an agent with POST /v1/auth/agent-register, or send the key of one of the developer's agents.").With("wants", "agent API key"))
		return
	}
	a, err := s.Accounts.Authenticate(c.Request.Context(), tok)
	if err != nil {
		writeError(c, err)
		return
	}
	c.Set(principalKey, &principal{Agent: a, DeveloperID: a.DeveloperID, Credential: credentialID(tok)})
	c.Next()
}

// agentOrDeveloperAuth accepts an agent API key or a developer JWT.
func (s *Server) agentOrDeveloperAuth(c *gin.Context) {
	tok, ok := bearer(c)
	if ok && !account.LooksLikeKey(tok) && strings.Count(tok, ".") == 2 {
		dev, err := s.Tokens.Verify(tok)
		if err != nil {
			writeError(c, err)
			return
		}
		if err := s.Accounts.EnsureDeveloper(c.Request.Context(), dev); err != nil {
			writeError(c, err)
			return
		}
		c.Set(principalKey, &principal{DeveloperID: dev, Credential: credentialID(tok)})
		c.Next()
		return
	}
	s.agentAuth(c)
}

// agentDeveloperOrAdminAuth is agentOrDeveloperAuth that also lets the
// administrator token through, for the reads operators watch (the roots and
// their anchoring): the administrator is counted against the per-key limit
// like a key.
func (s *Server) agentDeveloperOrAdminAuth(c *gin.Context) {
	if tok, ok := bearer(c); ok && s.isAdminToken(tok) {
		c.Set(principalKey, &principal{DeveloperID: "admin", Credential: credentialID(tok)})
		c.Next()
		return
	}
	s.agentOrDeveloperAuth(c)
}

// isAdminToken compares tok with the administrator token in constant time
// (false when the admin API is disabled).
func (s *Server) isAdminToken(tok string) bool {
	if s.AdminToken == "" {
		return false
	}
	want := sha256.Sum256([]byte(s.AdminToken))
	got := sha256.Sum256([]byte(tok))
	return subtle.ConstantTimeCompare(want[:], got[:]) == 1
}

// adminAuth requires the administrator token.
func (s *Server) adminAuth(c *gin.Context) {
	if s.AdminToken == "" {
		writeError(c, cairn.Errorf(cairn.EFORBIDDEN, "The admin API is disabled: start the server with --admin-token."))
		return
	}
	if tok, ok := bearer(c); !ok || !s.isAdminToken(tok) {
		writeError(c, cairn.Errorf(cairn.EUNAUTHORIZED, "Missing or invalid admin token."))
		return
	}
	c.Next()
}

func byCredential(c *gin.Context) string { return principalOf(c).Credential }

func byAgent(c *gin.Context) string {
	if a := agentOf(c); a != nil {
		return a.ID
	}
	return "dev:" + principalOf(c).DeveloperID
}

// limited returns the standard limits of an authenticated route: the
// per-key cap on all requests, then the per-agent cap on writes.
func (s *Server) limited() gin.HandlerFunc {
	return s.rateLimit(
		policy{name: "requests", l: s.keyLimit, key: byCredential, when: always},
		policy{name: "writes", l: s.writeLimit, key: byAgent, when: isWrite},
	)
}
