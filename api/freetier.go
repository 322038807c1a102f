package api

import (
	"context"
	"time"

	"github.com/cairn-dev/cairn/store"
	"github.com/gin-gonic/gin"
)

// FreeScreenWindow is the length of a free screening window. A developer's
// window opens at its first screening and holds FreeScreensPerHour free
// addresses (spec 8). Windows are kept in the store (store.Screenings), so
// a restart neither resets nor moves them.
const FreeScreenWindow = time.Hour

// takeFree takes up to n free addresses of the developer's current window;
// the store serializes the takes of one developer, so concurrent requests
// never get the same free addresses.
func (s *Server) takeFree(c *gin.Context, dev string, n int, now time.Time) (store.FreeTake, error) {
	return s.Screenings.TakeFree(c.Request.Context(), dev, n, FreeScreensPerHour, FreeScreenWindow, now)
}

// giveBackFree returns the free addresses of a request that was not served.
// It runs even when the client has gone; a failure is logged, since the
// request already fails with its own error.
func (s *Server) giveBackFree(c *gin.Context, dev string, t store.FreeTake) {
	if t.Free == 0 {
		return
	}
	ctx := context.WithoutCancel(c.Request.Context())
	if err := s.Screenings.GiveBackFree(ctx, dev, t.Start, t.Free); err != nil {
		s.Logger.ErrorContext(ctx, "giving back free screening addresses failed", "developer", dev, "n", t.Free, "err", err)
	}
}
