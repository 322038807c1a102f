package wire

// NameRequest is the optional body of registerAgent and createAgent.
type NameRequest struct {
	Name string `json:"name,omitempty"`
}

// RotateRequest is the body of rotateKey.
type RotateRequest struct {
	RotationSecret *string `json:"rotationSecret"`
}

// DepositInfo says where and how to top up the credits.
type DepositInfo struct {
	Address         string   `json:"address"`
	SupportedTokens []string `json:"supportedTokens"`
	Network         string   `json:"network"`
	Note            string   `json:"note"`
}

// Registration is a new agent with its one-time secrets (registerAgent,
// createAgent).
type Registration struct {
	AgentID        string      `json:"agentId"`
	DeveloperID    string      `json:"developerId"`
	Name           string      `json:"name"`
	APIKey         string      `json:"apiKey"`
	RotationSecret string      `json:"rotationSecret"`
	CreditBalance  int64       `json:"creditBalance"`
	AptosAddress   string      `json:"aptosAddress"`
	DepositInfo    DepositInfo `json:"depositInfo"`
}

// Agent is an agent's public record (getSelf).
type Agent struct {
	AgentID      string `json:"agentId"`
	AptosAddress string `json:"aptosAddress"`
	CreatedAt    Time   `json:"createdAt"`
	DeveloperID  string `json:"developerId"`
	Name         string `json:"name"`
}

// Rotation is the new key pair of rotateKey, shown once.
type Rotation struct {
	AgentID        string `json:"agentId"`
	AgentName      string `json:"agentName"`
	APIKey         string `json:"apiKey"`
	Message        string `json:"message"`
	RotationSecret string `json:"rotationSecret"`
}

// Revocation is the result of revokeAgent: RevokedAt is the first
// revocation's time.
type Revocation struct {
	AgentID   string `json:"agentId"`
	Revoked   bool   `json:"revoked"`
	RevokedAt Time   `json:"revokedAt"`
}

// AdminAgent is an agent as the administrator looks it up
// (getAdminAgent), with the credit balance of its developer account.
type AdminAgent struct {
	AgentID        string `json:"agentId"`
	CreatedAt      Time   `json:"createdAt"`
	CreditBalance  int64  `json:"creditBalance"`
	DepositAddress string `json:"depositAddress"`
	DeveloperID    string `json:"developerId"`
	Name           string `json:"name"`
	Revoked        bool   `json:"revoked"`
	RevokedAt      *Time  `json:"revokedAt"`
}
