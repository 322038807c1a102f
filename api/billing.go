package api

import (
	"time"

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
			writeError(c, err)
			return
		}
		c.Next()
		b.Settle(c.Request.Context(), c.Writer.Status())
	}
}

// billOf is the bill paid opened for the request.
func billOf(c *gin.Context) *billing.Bill { return c.MustGet(billKey).(*billing.Bill) }

// SettledBefore is the checkpoint of start-up recovery: the start of the
// oldest priced request still running (billing.Biller.SettledBefore).
func (s *Server) SettledBefore() time.Time { return s.biller.SettledBefore() }
