package store

import (
	"context"
	"time"

	"github.com/cairn-dev/cairn"
)

// Screenings holds the free screening windows of developer accounts and the
// count of screening requests.
type Screenings interface {
	// TakeFree uses up to n free addresses of the developer's current
	// window. A window opens at now, with nothing used, when the developer
	// has none or the last one started window or more before now; it then
	// lasts window. The take returns min(n, limit-used) free addresses and
	// counts them as used. Calls for one developer are serialized: two
	// concurrent takes never both get the same free addresses. n and limit
	// must not be negative and window must be positive (EINVALID).
	TakeFree(ctx context.Context, developerID string, n, limit int, window time.Duration, now time.Time) (cairn.FreeTake, error)

	// GiveBackFree returns n free addresses of a take whose request was not
	// served to the window that started at start. It does nothing when that
	// window is no longer the developer's (a later one has opened), and the
	// used count never drops below zero. A window left with nothing used is
	// dropped: every served request used some of it, so none was served in
	// it, and the developer's next take opens a window at its own time.
	GiveBackFree(ctx context.Context, developerID string, start time.Time, n int) error

	// AddScreenings adds n to the count of screening requests.
	AddScreenings(ctx context.Context, n int64) error

	// ScreeningCount returns the count of screening requests (0 when none
	// was ever counted).
	ScreeningCount(ctx context.Context) (int64, error)
}
