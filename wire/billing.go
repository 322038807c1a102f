package wire

// Pricing is the price list: operation name to credits (getPricing,
// setPricing).
type Pricing struct {
	CreditPriceUSD float64          `json:"creditPriceUsd"`
	Note           string           `json:"note"`
	OperationCosts map[string]int64 `json:"operationCosts"`
}

// PricingRequest is the body of setPricing.
type PricingRequest struct {
	OperationCosts map[string]int64 `json:"operationCosts"`
}

// Balance is a developer account's credit balance (getBalance).
type Balance struct {
	CreditBalance int64  `json:"creditBalance"`
	DeveloperID   string `json:"developerId"`
}

// Transaction is one movement of credits.
type Transaction struct {
	ID           string `json:"id"`
	Kind         string `json:"kind"`
	Operation    string `json:"operation"`
	Amount       int64  `json:"amount"`
	BalanceAfter int64  `json:"balanceAfter"`
	AgentID      string `json:"agentId,omitempty"`
	RequestID    string `json:"requestId,omitempty"`
	RefID        string `json:"refId,omitempty"`
	Reason       string `json:"reason,omitempty"`
	TxHash       string `json:"txHash,omitempty"`
	CreatedAt    Time   `json:"createdAt"`
}

// TransactionPage is one page of the ledger (listTransactions).
type TransactionPage struct {
	Paging
	Transactions []Transaction `json:"transactions"`
}

// AgentBalance is the balance an agent spends from (its developer
// account's) with its deposit address (getAgentBalance).
type AgentBalance struct {
	AgentID       string      `json:"agentId"`
	AptosAddress  string      `json:"aptosAddress"`
	CreditBalance int64       `json:"creditBalance"`
	DepositInfo   DepositInfo `json:"depositInfo"`
	DeveloperID   string      `json:"developerId"`
}

// DepositRequest is the body of depositAPT.
type DepositRequest struct {
	TxHash string `json:"txHash"`
}

// Deposit is a credited APT deposit (depositAPT).
type Deposit struct {
	CreditBalance int64 `json:"creditBalance"`
	CreditsAdded  int64 `json:"creditsAdded"`
	// Octas is the APT moved into the deposit address, in octas (10^-8
	// APT), as a decimal string.
	Octas       string      `json:"octas"`
	Transaction Transaction `json:"transaction"`
	TxHash      string      `json:"txHash"`
	// Version is the transaction's ledger version.
	Version int64 `json:"version"`
}

// GrantRequest is the body of grantCredits.
type GrantRequest struct {
	DeveloperID string `json:"developerId"`
	Amount      *int64 `json:"amount"`
	Reason      string `json:"reason"`
}

// Grant is the result of grantCredits: the ledger entry and the new
// balance.
type Grant struct {
	CreditBalance int64       `json:"creditBalance"`
	DeveloperID   string      `json:"developerId"`
	Transaction   Transaction `json:"transaction"`
}
