package cairn

import "time"

// RateTake is the outcome of one event counted against a stored limit.
type RateTake struct {
	Allowed    bool
	Remaining  int           // events still allowed now
	Reset      time.Duration // until the full quota is back
	RetryAfter time.Duration // when denied: until one more event is allowed
}

// FreeTake is the outcome of taking free screening addresses.
type FreeTake struct {
	Free      int       // how many of the requested addresses are free
	Remaining int       // free addresses left in the window after the take
	Start     time.Time // when the window started (identifies it for GiveBackFree)
	Reset     time.Time // when the window ends: Start plus the window length
}
