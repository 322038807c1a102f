package api

import (
	"net/http"
	"strconv"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/billing"
	"github.com/cairn-dev/cairn/compliance"
	"github.com/gin-gonic/gin"
)

// billingRoutes registers the billing endpoints: the live prices (no
// authentication), the agent's balance and deposits, and the account's
// balance and transactions (agent API key or developer JWT).
func (s *Server) billingRoutes(v1, agent *gin.RouterGroup) {
	v1.GET("/billing/pricing", h(s.pricing))
	agent.GET("/billing/agent/balance", h(s.agentBalance))
	agent.POST("/billing/agent/deposit", strictBody[depositRequest](), h(s.deposit))
	account := v1.Group("", s.agentOrDeveloperAuth, s.limited())
	account.GET("/billing/balance", h(s.balance))
	account.GET("/billing/transactions", h(s.transactions))
}

// pricingBody is the body of GET /v1/billing/pricing and of a pricing
// change: the live costs and the note written from them.
func (s *Server) pricingBody() gin.H {
	costs := s.Pricing.Costs()
	return gin.H{"creditPriceUsd": billing.CreditPriceUSD, "operationCosts": costs, "note": billing.Note(costs, compliance.FreePerWindow, compliance.FreeWindow)}
}

// pricing is GET /v1/billing/pricing (spec 4.15).
func (s *Server) pricing(c *gin.Context) error {
	writeJSON(c, http.StatusOK, s.pricingBody())
	return nil
}

// balance is GET /v1/billing/balance: the developer account's balance.
func (s *Server) balance(c *gin.Context) error {
	p := principalOf(c)
	bal, err := s.Ledger.Balance(c.Request.Context(), p.DeveloperID)
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, gin.H{"developerId": p.DeveloperID, "creditBalance": bal})
	return nil
}

// agentBalance is GET /v1/billing/agent/balance: the balance the agent
// spends from, and where to deposit.
func (s *Server) agentBalance(c *gin.Context) error {
	a := agentOf(c)
	bal, err := s.Ledger.Balance(c.Request.Context(), a.DeveloperID)
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, gin.H{
		"agentId": a.ID, "developerId": a.DeveloperID, "creditBalance": bal,
		"aptosAddress": a.DepositAddress, "depositInfo": s.Accounts.DepositInfo(a),
	})
	return nil
}

type transactionJSON struct {
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
	CreatedAt    string `json:"createdAt"`
}

func toTransactionJSON(e *cairn.LedgerEntry) transactionJSON {
	return transactionJSON{
		ID: e.ID, Kind: e.Kind, Operation: e.Operation, Amount: e.Amount, BalanceAfter: e.BalanceAfter,
		AgentID: e.AgentID, RequestID: e.RequestID, RefID: e.RefID, Reason: e.Reason, TxHash: billing.DepositTxHash(e),
		CreatedAt: timestamp(e.CreatedAt),
	}
}

// transactions is GET /v1/billing/transactions: the ledger, newest first,
// cursor-paginated.
func (s *Server) transactions(c *gin.Context) error {
	limit, err := pageLimit(c)
	if err != nil {
		return err
	}
	p := principalOf(c)
	page, err := s.Ledger.Transactions(c.Request.Context(), p.DeveloperID, c.Query("cursor"), limit)
	if err != nil {
		return err
	}
	out := make([]transactionJSON, len(page.Entries))
	for i := range page.Entries {
		out[i] = toTransactionJSON(&page.Entries[i])
	}
	var next any
	if page.NextCursor != "" {
		next = page.NextCursor
	}
	writeJSON(c, http.StatusOK, gin.H{"transactions": out, "limit": limit, "nextCursor": next, "hasMore": page.NextCursor != ""})
	return nil
}

type depositRequest struct {
	TxHash string `json:"txHash"`
}

// deposit is POST /v1/billing/agent/deposit {txHash} (free, limited like
// writes): credit the APT a transaction moved into the agent's deposit
// address.
func (s *Server) deposit(c *gin.Context) error {
	var req depositRequest
	if c.Request.ContentLength == 0 {
		return cairn.Errorf(cairn.EINVALID, "A JSON body with txHash is required.").With("field", "txHash")
	}
	if err := bindJSON(c, &req, false); err != nil {
		return err
	}
	if s.Deposits == nil {
		return cairn.Errorf(cairn.EUNAVAILABLE, "Deposits are not verified by this server.")
	}
	res, err := s.Deposits.Credit(c.Request.Context(), agentOf(c), req.TxHash, requestID(c))
	if cairn.IsCode(err, cairn.EPENDING) {
		c.Header("Retry-After", "5")
	}
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusCreated, gin.H{"txHash": res.Deposit.TxHash, "octas": strconv.FormatUint(res.Deposit.Amount, 10),
		"version": res.Deposit.Version, "creditsAdded": res.Entry.Amount, "creditBalance": res.Entry.BalanceAfter,
		"transaction": toTransactionJSON(res.Entry)})
	return nil
}
