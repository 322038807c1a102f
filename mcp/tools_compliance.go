package mcp

import (
	"context"

	"github.com/cairn-dev/cairn/client"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ScreenArgs are the arguments of screen_addresses.
type ScreenArgs struct {
	Addresses []client.AddressRef `json:"addresses" jsonschema:"1 to 100 addresses with their chain (ethereum, bitcoin, tron, solana, bsc, polygon...)"`
}

// ProofArgs are the arguments of merkle_proof.
type ProofArgs struct {
	Address     string `json:"address" jsonschema:"the address"`
	Chain       string `json:"chain" jsonschema:"its chain, e.g. ethereum"`
	ListVersion string `json:"listVersion,omitempty" jsonschema:"current (default), anchored (the version the chain holds, for a proof to send to the contract now) or a version number"`
}

// ReportArgs are the arguments of report_address.
type ReportArgs struct {
	Address  string   `json:"address" jsonschema:"the address"`
	Chain    string   `json:"chain,omitempty" jsonschema:"its chain, e.g. ethereum"`
	Category string   `json:"category" jsonschema:"scam, hack, exploit, theft, mixer, terrorism, sanctions_evasion, fraud or other"`
	Reason   string   `json:"reason" jsonschema:"what the address did (at most 2000 characters)"`
	Evidence []string `json:"evidence,omitempty" jsonschema:"up to 10 URLs"`
}

func (s *server) addComplianceTools(srv *sdk.Server) {
	tool(srv, s, "screen_addresses", "Screen blockchain addresses against sanctions lists and community reports: sanctioned, "+
		"flagged, clear or invalid_address, with a proof. The first 10 addresses an hour are free, then 1 credit each.",
		func(ctx context.Context, a ScreenArgs) (any, error) {
			return s.c.ScreenAddresses(ctx, a.Addresses, nil)
		})
	tool(srv, s, "merkle_proof", "Whether an address is listed, with its Merkle leaf and proof against the published root; "+
		"an address that is not listed comes with exclusionProof, the proof of its absence against exclusionRoot "+
		"(billed as screening).",
		func(ctx context.Context, a ProofArgs) (any, error) {
			return s.c.GetMerkleProofAt(ctx, a.Address, a.Chain, a.ListVersion)
		})
	tool(srv, s, "report_address", "Report a malicious address to the community list (reviewed before it is listed).",
		func(ctx context.Context, a ReportArgs) (any, error) {
			return s.c.ReportAddress(ctx, client.ReportRequest(a))
		})
}

// DepositArgs are the arguments of deposit.
type DepositArgs struct {
	TxHash string `json:"txHash" jsonschema:"the hash (0x...) of the APT transfer to the agent's deposit address"`
}

func (s *server) addBillingTools(srv *sdk.Server) {
	tool(srv, s, "balance", "The credit balance and the agent's APT deposit address (free).",
		func(ctx context.Context, _ struct{}) (any, error) {
			return s.c.GetAgentBalance(ctx)
		})
	tool(srv, s, "deposit", "Credit an APT transfer to the agent's deposit address (the balance tool shows aptosAddress): "+
		"give the transaction hash once it is committed; each transaction is credited once (free).",
		func(ctx context.Context, a DepositArgs) (any, error) {
			return s.c.DepositAPT(ctx, a.TxHash)
		})
	tool(srv, s, "pricing", "What each operation costs in credits (free).",
		func(ctx context.Context, _ struct{}) (any, error) {
			return s.c.GetPricing(ctx)
		})
}
