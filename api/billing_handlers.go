package api

import (
	"net/http"
	"strconv"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/billing"
	"github.com/cairn-dev/cairn/compliance"
	"github.com/cairn-dev/cairn/wire"
	"github.com/gin-gonic/gin"
)

// billingRoutes registers the billing endpoints: the live prices (no
// authentication), the agent's balance and deposits, and the account's
// balance and transactions (agent API key or developer JWT).
func (s *Server) billingRoutes(v1, agent *gin.RouterGroup) {
	v1.GET("/billing/pricing", h(s.pricing))
	agent.GET("/billing/agent/balance", h(s.agentBalance))
	agent.POST("/billing/agent/deposit", strictBody[wire.DepositRequest](), h(s.deposit))
	account := v1.Group("", s.agentOrDeveloperAuth, s.limited())
	account.GET("/billing/balance", h(s.balance))
	account.GET("/billing/transactions", h(s.transactions))
}

// pricingBody is the body of GET /v1/billing/pricing and of a pricing
// change: the live costs and the note written from them.
func (s *Server) pricingBody() wire.Pricing {
	costs := s.Pricing.Costs()
	return wire.Pricing{CreditPriceUSD: billing.CreditPriceUSD, OperationCosts: costs, Note: billing.Note(costs, compliance.FreePerWindow, compliance.FreeWindow)}
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
	writeJSON(c, http.StatusOK, wire.Balance{DeveloperID: p.DeveloperID, CreditBalance: bal})
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
	writeJSON(c, http.StatusOK, wire.AgentBalance{
		AgentID: a.ID, DeveloperID: a.DeveloperID, CreditBalance: bal,
		AptosAddress: a.DepositAddress, DepositInfo: s.Accounts.DepositInfo(a),
	})
	return nil
}

// toTransaction is the ledger entry e as a member of a response.
func toTransaction(e *cairn.LedgerEntry) wire.Transaction {
	return wire.Transaction{
		ID: e.ID, Kind: e.Kind, Operation: e.Operation, Amount: e.Amount, BalanceAfter: e.BalanceAfter,
		AgentID: e.AgentID, RequestID: e.RequestID, RefID: e.RefID, Reason: e.Reason, TxHash: billing.DepositTxHash(e),
		CreatedAt: wire.At(e.CreatedAt),
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
	out := make([]wire.Transaction, len(page.Entries))
	for i := range page.Entries {
		out[i] = toTransaction(&page.Entries[i])
	}
	var next *string
	if page.NextCursor != "" {
		next = &page.NextCursor
	}
	writeJSON(c, http.StatusOK, wire.TransactionPage{Paging: wire.PagingOf(limit, next), Transactions: out})
	return nil
}

// deposit is POST /v1/billing/agent/deposit {txHash} (free, limited like
// writes): credit the APT a transaction moved into the agent's deposit
// address.
func (s *Server) deposit(c *gin.Context) error {
	var req wire.DepositRequest
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
	writeJSON(c, http.StatusCreated, wire.Deposit{TxHash: res.Deposit.TxHash, Octas: strconv.FormatUint(res.Deposit.Amount, 10),
		Version: int64(res.Deposit.Version), CreditsAdded: res.Entry.Amount, CreditBalance: res.Entry.BalanceAfter,
		Transaction: toTransaction(res.Entry)})
	return nil
}
