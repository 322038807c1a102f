package account

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/chain"
	"github.com/cairn-dev/cairn/internal/ttlcache"
	"github.com/cairn-dev/cairn/store"
	"github.com/cairn-dev/cairn/wire"
)

// DefaultStarterCredits is what a self-registered account starts with.
const DefaultStarterCredits = 100

// MaxNameLen bounds an agent's display name, in characters.
const MaxNameLen = 100

// Service implements account operations over a store.
type Service struct {
	Store          store.Store
	Deposits       chain.DepositAddresses
	Clock          cairn.Clock
	StarterCredits int64
	// CreditsPerAPT is the deposit rate the deposit note states.
	CreditsPerAPT int64
	// AuthCacheTTL is how long an authenticated key's agent is remembered,
	// by the key's digest (never the key); 0: every request reads the
	// store. Unknown keys are not remembered. Rotations and revocations
	// through this Service take effect at once; those made by another
	// instance sharing the store within AuthCacheTTL.
	AuthCacheTTL time.Duration

	authCache ttlcache.Lazy[string, cairn.Agent]
}

// maxAuthCache bounds the keys the authentication cache holds.
const maxAuthCache = 100_000

// auth returns the authentication cache, nil when AuthCacheTTL is 0.
func (s *Service) auth() *ttlcache.Cache[string, cairn.Agent] {
	return s.authCache.Of(s.AuthCacheTTL, maxAuthCache)
}

// forget drops the cached keys of the agent (after a change of it).
func (s *Service) forget(agentID string) {
	s.auth().Drop(func(_ string, a cairn.Agent) bool { return a.ID == agentID })
}

// Credentials are the secrets of an agent, returned once.
type Credentials struct {
	APIKey         string
	RotationSecret string
}

// Registration is the outcome of a self-registration (spec 2.3).
type Registration struct {
	Agent       *cairn.Agent
	Developer   *cairn.Developer
	Credentials Credentials
}

// DepositInfo returns the deposit instructions for an agent.
func (s *Service) DepositInfo(a *cairn.Agent) wire.DepositInfo {
	return wire.DepositInfo{
		Address:         a.DepositAddress,
		SupportedTokens: s.Deposits.SupportedTokens(),
		Network:         s.Deposits.Network(),
		Note: fmt.Sprintf("Send APT to this address, then call POST /v1/billing/agent/deposit with the transaction hash. "+
			"The deposit is credited to the developer account once verified on chain, at %d credits per APT (rounded down); "+
			"each transaction is credited at most once.", s.creditsPerAPT()),
	}
}

func (s *Service) creditsPerAPT() int64 {
	if s.CreditsPerAPT <= 0 {
		return 1000
	}
	return s.CreditsPerAPT
}

// EnsureDeveloper makes sure the developer account of a verified developer
// token exists (created with no credits the first time it is seen).
func (s *Service) EnsureDeveloper(ctx context.Context, id string) error {
	_, err := s.Store.EnsureDeveloper(ctx, id)
	return err
}

// Register creates a developer account with its first agent and the
// starter credits.
func (s *Service) Register(ctx context.Context, name, requestID, ip string) (*Registration, error) {
	name, err := cleanName(name)
	if err != nil {
		return nil, err
	}
	now := s.Clock.Now()
	dev := &cairn.Developer{ID: cairn.NewID(), CreatedAt: now}
	agent, creds, err := s.newAgent(ctx, dev.ID, name)
	if err != nil {
		return nil, err
	}
	var grant *cairn.LedgerEntry
	if s.StarterCredits > 0 {
		grant = &cairn.LedgerEntry{
			ID: cairn.NewID(), DeveloperID: dev.ID, AgentID: agent.ID, Kind: cairn.LedgerGrant,
			Operation: "starter", Amount: s.StarterCredits, RequestID: requestID, Reason: "starter credits", CreatedAt: now,
		}
	}
	if err := s.Store.CreateAccount(ctx, dev, agent, grant); err != nil {
		return nil, err
	}
	_ = s.Store.AppendAudit(ctx, &cairn.AuditEntry{AgentID: agent.ID, Action: cairn.AuditRegister, Resource: agent.ID, RequestID: requestID, IP: ip, CreatedAt: now})
	return &Registration{Agent: agent, Developer: dev, Credentials: creds}, nil
}

// CreateAgent adds an agent to the developer account of parent. The charge
// for it is taken by the caller's billing.
func (s *Service) CreateAgent(ctx context.Context, parent *cairn.Agent, name, requestID, ip string) (*cairn.Agent, Credentials, error) {
	name, err := cleanName(name)
	if err != nil {
		return nil, Credentials{}, err
	}
	agent, creds, err := s.newAgent(ctx, parent.DeveloperID, name)
	if err != nil {
		return nil, Credentials{}, err
	}
	if err := s.Store.CreateAgent(ctx, agent); err != nil {
		return nil, Credentials{}, err
	}
	_ = s.Store.AppendAudit(ctx, &cairn.AuditEntry{AgentID: agent.ID, Action: cairn.AuditRegister, Resource: agent.ID,
		Detail: map[string]any{"createdBy": parent.ID}, RequestID: requestID, IP: ip, CreatedAt: s.Clock.Now()})
	return agent, creds, nil
}

func (s *Service) newAgent(ctx context.Context, developerID, name string) (*cairn.Agent, Credentials, error) {
	idx, err := s.Store.NextDepositIndex(ctx)
	if err != nil {
		return nil, Credentials{}, err
	}
	addr, err := s.Deposits.Address(idx)
	if err != nil {
		return nil, Credentials{}, err
	}
	key, keyHash := newSecret()
	secret, secretHash := newRotationSecret()
	if name == "" {
		name = generatedName()
	}
	a := &cairn.Agent{
		ID: cairn.NewID(), DeveloperID: developerID, Name: name, KeyHash: keyHash, SecretHash: secretHash,
		DepositIndex: idx, DepositAddress: addr, CreatedAt: s.Clock.Now(),
	}
	return a, Credentials{APIKey: key, RotationSecret: secret}, nil
}

// cleanName trims a requested display name and checks it.
func cleanName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if !utf8.ValidString(name) || utf8.RuneCountInString(name) > MaxNameLen {
		return "", cairn.Errorf(cairn.EINVALID, "name must be valid UTF-8 of at most %d characters.", MaxNameLen)
	}
	for _, r := range name {
		if unicode.IsControl(r) {
			return "", cairn.Errorf(cairn.EINVALID, "name must not contain control characters.")
		}
	}
	return name, nil
}

func generatedName() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return "agent-" + hex.EncodeToString(b[:])
}

// Sibling returns the agent with the id when it belongs to the caller's
// developer account and is not revoked; any other agent, or none, is
// ENOTFOUND, so that agents of other developers are never told apart from
// unknown ids.
func (s *Service) Sibling(ctx context.Context, caller *cairn.Agent, id string) (*cairn.Agent, error) {
	a, err := s.Store.Agent(ctx, id)
	if cairn.IsCode(err, cairn.ENOTFOUND) || err == nil && (a.DeveloperID != caller.DeveloperID || a.Revoked) {
		return nil, cairn.Errorf(cairn.ENOTFOUND, "No agent %q under this developer account.", id).With("field", "agentId")
	} else if err != nil {
		return nil, err
	}
	return a, nil
}

// Agent returns any agent by id, revoked or not, for the administrator;
// an id that names none is ENOTFOUND.
func (s *Service) Agent(ctx context.Context, id string) (*cairn.Agent, error) {
	if !cairn.ValidID(id) {
		return nil, cairn.Errorf(cairn.ENOTFOUND, "No agent %q.", id).With("field", "agentId")
	}
	return s.Store.Agent(ctx, id)
}
