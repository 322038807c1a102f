package billing_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/billing"
)

// TestNoteFollowsLivePrices: the pricing note names every priced operation
// with its live cost, the free window and the refunded statuses.
func TestNoteFollowsLivePrices(t *testing.T) {
	costs := billing.DefaultCosts()
	note := billing.Note(costs, 10, time.Hour)
	for op, cost := range costs {
		want := op + ", " + strconv.FormatInt(cost, 10) + " credits:"
		if cost == 1 {
			want = op + ", 1 credit:"
		}
		if !strings.Contains(note, want) {
			t.Errorf("note lacks %q:\n%s", want, note)
		}
	}
	for _, s := range []string{"first 10 addresses per hour", "(400, 413, 415, 416, 422, 5xx) are refunded", "1 credit = 0.01 USD"} {
		if !strings.Contains(note, s) {
			t.Errorf("note lacks %q:\n%s", s, note)
		}
	}

	costs[billing.OpMemoryRead] = 0
	costs[billing.OpSearch] = 7
	note = billing.Note(costs, 25, 24*time.Hour)
	for _, s := range []string{"memory.read, free:", "search, 7 credits:", "first 25 addresses per day"} {
		if !strings.Contains(note, s) {
			t.Errorf("note after a price change lacks %q:\n%s", s, note)
		}
	}
}
