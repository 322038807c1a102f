package cairn

import "time"

// RateTake is the outcome of one event counted against a stored limit.
type RateTake struct {
	Allowed    bool
	Remaining  int           // events still allowed now
	Reset      time.Duration // until the full quota is back
	RetryAfter time.Duration // when denied: until one more event is allowed
}
