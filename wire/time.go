package wire

import (
	"encoding/json"
	"time"
)

// TimeLayout is the service's ISO 8601 UTC timestamp, to the millisecond.
const TimeLayout = "2006-01-02T15:04:05.000Z"

// Time is a timestamp member: written in UTC as TimeLayout, read from
// any RFC 3339 time.
type Time struct{ time.Time }

// At is t as a Time.
func At(t time.Time) Time { return Time{t} }

// OptAt is t as a *Time, or nil (JSON null) when t is zero.
func OptAt(t time.Time) *Time {
	if t.IsZero() {
		return nil
	}
	return &Time{t}
}

// String is t formatted as TimeLayout in UTC.
func (t Time) String() string { return t.UTC().Format(TimeLayout) }

// MarshalJSON writes t as a TimeLayout string.
func (t Time) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, len(TimeLayout)+2)
	b = append(b, '"')
	b = t.UTC().AppendFormat(b, TimeLayout)
	return append(b, '"'), nil
}

// UnmarshalJSON reads an RFC 3339 string.
func (t *Time) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	var tt time.Time
	if err := json.Unmarshal(b, &tt); err != nil {
		return err
	}
	t.Time = tt
	return nil
}
