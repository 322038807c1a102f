package client

import (
	"context"
	"iter"
	"net/http"

	"github.com/cairn-dev/cairn/wire"
)

// GetPricing returns the price list (getPricing).
func (c *Client) GetPricing(ctx context.Context) (*Pricing, error) {
	return callFor[Pricing](ctx, c, http.MethodGet, "/v1/billing/pricing", nil, authNone)
}

// GetBalance returns the caller's credit balance (getBalance, free).
func (c *Client) GetBalance(ctx context.Context) (*Balance, error) {
	return callFor[Balance](ctx, c, http.MethodGet, "/v1/billing/balance", nil, authAgent)
}

// ListTransactions returns one page of the ledger, newest first
// (listTransactions).
func (c *Client) ListTransactions(ctx context.Context, limit int, cursor string) (*TransactionPage, error) {
	return pageFor[TransactionPage](ctx, c, "/v1/billing/transactions", limit, cursor)
}

// AllTransactions iterates over the whole ledger.
func (c *Client) AllTransactions(ctx context.Context) iter.Seq2[Transaction, error] {
	return paginate(func(cursor string) (*TransactionPage, error) { return c.ListTransactions(ctx, 100, cursor) },
		func(pg *TransactionPage) ([]Transaction, *string) { return pg.Transactions, pg.NextCursor })
}

// GetAgentBalance returns the balance with the agent's deposit address
// (getAgentBalance).
func (c *Client) GetAgentBalance(ctx context.Context) (*AgentBalance, error) {
	return callFor[AgentBalance](ctx, c, http.MethodGet, "/v1/billing/agent/balance", nil, authAgent)
}

// DepositAPT credits an APT transfer to the agent's deposit address
// (depositAPT).
func (c *Client) DepositAPT(ctx context.Context, txHash string) (*Deposit, error) {
	return callFor[Deposit](ctx, c, http.MethodPost, "/v1/billing/agent/deposit", wire.DepositRequest{TxHash: txHash}, authAgent)
}

// SetPricing changes operation costs and returns the live price list
// (setPricing, admin).
func (c *Client) SetPricing(ctx context.Context, operationCosts map[string]int64) (*Pricing, error) {
	return callFor[Pricing](ctx, c, http.MethodPut, "/v1/admin/pricing",
		wire.PricingRequest{OperationCosts: operationCosts}, authAdmin)
}

// GrantCredits adds credits to a developer account, or removes them with a
// negative amount (grantCredits, admin).
func (c *Client) GrantCredits(ctx context.Context, developerID string, amount int64, reason string) (*Grant, error) {
	return callFor[Grant](ctx, c, http.MethodPost, "/v1/admin/credits",
		wire.GrantRequest{DeveloperID: developerID, Amount: &amount, Reason: reason}, authAdmin)
}
