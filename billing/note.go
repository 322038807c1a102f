package billing

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// charged says, for each priced operation, which requests it is charged
// on, in the order the pricing note lists them.
var charged = []struct{ op, on string }{
	{OpMemoryWrite, "POST /v1/memory, POST /v1/memory/upload"},
	{OpMemoryRead, "GET /v1/memory (list, one charge per page), GET /v1/memory/{id}, GET /v1/memory/{id}/download"},
	{OpMemoryUpdate, "PUT /v1/memory/{id}"},
	{OpMemoryDelete, "DELETE /v1/memory/{id}, and each deleted item of POST /v1/memory/bulk-delete"},
	{OpBulkWrite, "each item of POST /v1/memory/bulk"},
	{OpSearch, "POST /v1/memory/search (full-text and hybrid), POST /v1/memory/vector-search"},
	{OpMediaUpload, "POST /v1/media/upload"},
	{OpMediaStream, "GET /v1/media/{id}/stream (HEAD is free)"},
	{OpMediaDelete, "DELETE /v1/media/{id}"},
	{OpAgentCreate, "POST /v1/agents"},
	{OpWatch, "per address added to a watchlist (POST /v1/compliance/watchlists, POST /v1/compliance/watchlists/{id}/addresses) " +
		"beyond the first " + strconv.Itoa(FreeWatched) + " addresses a developer account watches, once when it is added"},
}

// free names the requests no operation is charged on besides those of the
// account and its balance.
const free = "GET /v1/memory/{id}/history, pin and importance updates, TTL alerts and expiring checks, audit reads, " +
	"media metadata and media listing"

// refundedStatuses lists the statuses Refundable gives credits back on.
const refundedStatuses = "400, 413, 415, 416, 422, 5xx"

// Note is the pricing note of GET /v1/billing/pricing, written from the
// live costs and the screening's free window (freeAddresses per window),
// so that it never disagrees with what is charged.
func Note(costs map[string]int64, freeAddresses int, window time.Duration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Costs are in credits (1 credit = %.2f USD) per request.", CreditPriceUSD)
	for _, c := range charged {
		fmt.Fprintf(&b, " %s, %s: %s.", c.op, credits(costs[c.op]), c.on)
	}
	fmt.Fprintf(&b, " Free: %s.", free)
	fmt.Fprintf(&b, " Screening and Merkle proofs (single and batch) share one window: the first %d addresses per %s per developer are free, then 1 credit per address.",
		freeAddresses, per(window))
	fmt.Fprintf(&b, " Failed requests (%s) are refunded; 404, 409, 412 (a failed If-Match) and 429 are not.", refundedStatuses)
	return b.String()
}

func credits(n int64) string {
	switch n {
	case 0:
		return "free"
	case 1:
		return "1 credit"
	}
	return fmt.Sprintf("%d credits", n)
}

// per names a window length: "hour" for one hour, else the duration.
func per(d time.Duration) string {
	switch d {
	case time.Hour:
		return "hour"
	case 24 * time.Hour:
		return "day"
	}
	return d.String()
}
