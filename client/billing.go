package client

import (
	"context"
	"iter"
	"net/http"
	"time"
)

// Pricing is the price list: operation name to credits.
type Pricing struct {
	CreditPriceUSD float64          `json:"creditPriceUsd"`
	OperationCosts map[string]int64 `json:"operationCosts"`
	Note           string           `json:"note"`
}

// GetPricing returns the price list (getPricing).
func (c *Client) GetPricing(ctx context.Context) (*Pricing, error) {
	var out Pricing
	return ret(&out, c.call(ctx, http.MethodGet, "/v1/billing/pricing", nil, &out, authNone))
}

// Balance is a developer account's credit balance.
type Balance struct {
	DeveloperID   string `json:"developerId"`
	CreditBalance int64  `json:"creditBalance"`
}

// GetBalance returns the caller's credit balance (getBalance, free).
func (c *Client) GetBalance(ctx context.Context) (*Balance, error) {
	var out Balance
	return ret(&out, c.call(ctx, http.MethodGet, "/v1/billing/balance", nil, &out, authAgent))
}

// Transaction is one movement of credits.
type Transaction struct {
	ID           string    `json:"id"`
	Kind         string    `json:"kind"`
	Operation    string    `json:"operation"`
	Amount       int64     `json:"amount"`
	BalanceAfter int64     `json:"balanceAfter"`
	AgentID      string    `json:"agentId,omitempty"`
	RequestID    string    `json:"requestId,omitempty"`
	RefID        string    `json:"refId,omitempty"`
	Reason       string    `json:"reason,omitempty"`
	TxHash       string    `json:"txHash,omitempty"`
	CreatedAt    time.Time `json:"createdAt"`
}

// TransactionPage is one page of the ledger.
type TransactionPage struct {
	Transactions []Transaction `json:"transactions"`
	Limit        int           `json:"limit"`
	NextCursor   *string       `json:"nextCursor"`
	HasMore      bool          `json:"hasMore"`
}

// ListTransactions returns one page of the ledger, newest first
// (listTransactions).
func (c *Client) ListTransactions(ctx context.Context, limit int, cursor string) (*TransactionPage, error) {
	var out TransactionPage
	_, err := c.do(ctx, &request{method: http.MethodGet, path: "/v1/billing/transactions",
		query: query("limit", itoa(limit), "cursor", cursor)}, &out)
	return ret(&out, err)
}

// AllTransactions iterates over the whole ledger.
func (c *Client) AllTransactions(ctx context.Context) iter.Seq2[Transaction, error] {
	return paginate(func(cursor string) ([]Transaction, *string, error) {
		pg, err := c.ListTransactions(ctx, 100, cursor)
		if err != nil {
			return nil, nil, err
		}
		return pg.Transactions, pg.NextCursor, nil
	})
}

// AgentBalance is the balance an agent spends from (its developer
// account's) with its deposit address.
type AgentBalance struct {
	AgentID       string      `json:"agentId"`
	DeveloperID   string      `json:"developerId"`
	CreditBalance int64       `json:"creditBalance"`
	AptosAddress  string      `json:"aptosAddress"`
	DepositInfo   DepositInfo `json:"depositInfo"`
}

// GetAgentBalance returns the balance with the agent's deposit address
// (getAgentBalance).
func (c *Client) GetAgentBalance(ctx context.Context) (*AgentBalance, error) {
	var out AgentBalance
	return ret(&out, c.call(ctx, http.MethodGet, "/v1/billing/agent/balance", nil, &out, authAgent))
}

// Deposit is a credited APT deposit.
type Deposit struct {
	TxHash string `json:"txHash"`
	// Octas is the APT moved into the deposit address, in octas (10^-8
	// APT), as a decimal string.
	Octas string `json:"octas"`
	// Version is the transaction's ledger version.
	Version       int64       `json:"version"`
	CreditsAdded  int64       `json:"creditsAdded"`
	CreditBalance int64       `json:"creditBalance"`
	Transaction   Transaction `json:"transaction"`
}

// DepositAPT credits an APT transfer to the agent's deposit address
// (depositAPT).
func (c *Client) DepositAPT(ctx context.Context, txHash string) (*Deposit, error) {
	var out Deposit
	return ret(&out, c.call(ctx, http.MethodPost, "/v1/billing/agent/deposit", map[string]string{"txHash": txHash}, &out, authAgent))
}

// SetPricing changes operation costs and returns the live price list
// (setPricing, admin).
func (c *Client) SetPricing(ctx context.Context, operationCosts map[string]int64) (*Pricing, error) {
	var out Pricing
	return ret(&out, c.call(ctx, http.MethodPut, "/v1/admin/pricing",
		map[string]any{"operationCosts": operationCosts}, &out, authAdmin))
}

// Grant is the result of grantCredits: the ledger entry and the new
// balance.
type Grant struct {
	DeveloperID   string      `json:"developerId"`
	CreditBalance int64       `json:"creditBalance"`
	Transaction   Transaction `json:"transaction"`
}

// GrantCredits adds credits to a developer account, or removes them with a
// negative amount (grantCredits, admin).
func (c *Client) GrantCredits(ctx context.Context, developerID string, amount int64, reason string) (*Grant, error) {
	var out Grant
	return ret(&out, c.call(ctx, http.MethodPost, "/v1/admin/credits",
		map[string]any{"developerId": developerID, "amount": amount, "reason": reason}, &out, authAdmin))
}
