package api

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/billing"
	"github.com/gin-gonic/gin"
)

const billKey = "cairn.bill"

// paid is the one billing middleware: it opens the request's bill, charges
// op's live cost before the handler runs (402 when short; op "" charges
// nothing upfront, for bulk requests that bill each item with Bill.Item),
// and settles the bill by the response status once the handler is done
// (billing.Bill.Settle: refunds per spec 7).
func (s *Server) paid(op string) gin.HandlerFunc {
	return func(c *gin.Context) {
		p := principalOf(c)
		agentID := ""
		if p.Agent != nil {
			agentID = p.Agent.ID
		}
		b := s.biller.Open(p.DeveloperID, agentID, requestID(c))
		c.Set(billKey, b)
		if err := b.Charge(c.Request.Context(), op); err != nil {
			b.Settle(c.Request.Context(), errStatus(err))
			writeError(c, s.topUpHelp(p, err))
			return
		}
		c.Next()
		b.Settle(c.Request.Context(), c.Writer.Status())
	}
}

// topUpHelp adds to a 402 what to do about it: the agent's deposit
// address and network, the deposit endpoint, the smallest deposit that
// covers the shortfall, and what stays free meanwhile. Other errors are
// returned as they are.
func (s *Server) topUpHelp(p *principal, err error) error {
	var e *cairn.Error
	if !errors.As(err, &e) || e.Code != cairn.EPAYMENT {
		return err
	}
	required, _ := e.Details["required"].(int64)
	available, _ := e.Details["available"].(int64)
	if p.Agent == nil {
		return e.With("depositEndpoint", "POST /v1/billing/agent/deposit")
	}
	info := s.Accounts.DepositInfo(p.Agent)
	rate := s.Accounts.CreditsPerAPT
	if rate <= 0 {
		rate = 1000
	}
	short := max(required-available, 1)
	octas := (short*100_000_000 + rate - 1) / rate // the smallest deposit buying short credits
	apt := strconv.FormatFloat(float64(octas)/1e8, 'f', -1, 64)
	msg := fmt.Sprintf("Insufficient credits: %d required, %d available. To top up, send at least %s APT (%d credits per APT) "+
		"on %s to this agent's deposit address %s, then POST /v1/billing/agent/deposit {\"txHash\": \"0x...\"}; "+
		"GET /v1/billing/agent/balance shows the balance. Free meanwhile: history, pin, importance, TTL alerts, the audit log, "+
		"media metadata and listing.", required, available, apt, rate, info.Network, info.Address)
	return (&cairn.Error{Code: e.Code, Message: msg, Details: e.Details}).
		With("depositAddress", info.Address).With("network", info.Network).With("depositEndpoint", "POST /v1/billing/agent/deposit").
		With("minimumDepositApt", apt)
}

// billOf is the bill paid opened for the request.
func billOf(c *gin.Context) *billing.Bill { return c.MustGet(billKey).(*billing.Bill) }

// SettledBefore is the checkpoint of start-up recovery: the start of the
// oldest priced request still running (billing.Biller.SettledBefore).
func (s *Server) SettledBefore() time.Time { return s.biller.SettledBefore() }

// StopBilling ends the background retries of refunds the store could not
// take (billing.Biller.Stop): their requests stay open for start-up
// recovery. Call it once the server takes no more requests.
func (s *Server) StopBilling() { s.biller.Stop() }
