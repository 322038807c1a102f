package cairn

import (
	"strconv"
	"time"
)

// MaxTTL bounds a time-to-live: ten years.
const MaxTTL = 10 * 365 * 24 * time.Hour

// ParseTTL parses a time-to-live written {n}{unit}: a positive whole number
// and one of s, m, h, d (24 h) or w (7 d), e.g. "90s", "24h", "7d", "2w".
// Anything else, zero, or more than MaxTTL is EINVALID.
func ParseTTL(s string) (time.Duration, error) {
	bad := Errorf(EINVALID, "Invalid TTL %q: want {n}{unit} with unit s, m, h, d or w, e.g. 24h or 30d.", clip(s, 32))
	if len(s) < 2 || len(s) > 12 {
		return 0, bad
	}
	var unit time.Duration
	switch s[len(s)-1] {
	case 's':
		unit = time.Second
	case 'm':
		unit = time.Minute
	case 'h':
		unit = time.Hour
	case 'd':
		unit = 24 * time.Hour
	case 'w':
		unit = 7 * 24 * time.Hour
	default:
		return 0, bad
	}
	digits := s[:len(s)-1]
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, bad
		}
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || n <= 0 || n > int64(MaxTTL/unit) {
		return 0, bad
	}
	return time.Duration(n) * unit, nil
}

// clip bounds a string echoed in an error message.
func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
