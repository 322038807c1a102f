package api

import (
	"net/http"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/memory"
	"github.com/cairn-dev/cairn/wire"
	"github.com/gin-gonic/gin"
)

// expiringJSON renders the items of the expiring lists.
func expiringJSON(ms []cairn.Memory, now time.Time) []wire.ExpiringMemory {
	out := make([]wire.ExpiringMemory, len(ms))
	for i, m := range ms {
		out[i] = wire.ExpiringMemory{ID: m.LatestID, MemoryID: m.ID, Key: m.Key, Type: m.Type, Pinned: m.Pinned,
			Importance: m.Importance, ExpiresAt: wire.At(m.ExpiresAt),
			ExpiresInSeconds: int64(m.ExpiresAt.Sub(now) / time.Second)}
	}
	return out
}

// ttlParam parses the duration parameter field, whose value is v or, when
// v is empty, def; it returns the duration and the value parsed.
func ttlParam(v, def, field string) (time.Duration, string, error) {
	if v == "" {
		v = def
	}
	d, err := cairn.ParseTTL(v)
	if err != nil {
		return 0, v, cairn.Errorf(cairn.EINVALID, "%s", cairn.ErrorMessage(err)).With("field", field)
	}
	return d, v, nil
}

// expiringMemories is GET /v1/memory/expiring (free): ?within (default
// 24h), ?type, ?limit.
func (s *Server) expiringMemories(c *gin.Context) error {
	limit, err := pageLimit(c)
	if err != nil {
		return err
	}
	d, within, err := ttlParam(c.Query("within"), "24h", "within")
	if err != nil {
		return err
	}
	ms, err := s.Memory.Expiring(c.Request.Context(), agentOf(c).ID, c.Query("type"), d, limit)
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, wire.Expiring{Expiring: expiringJSON(ms, s.Clock.Now()), Count: len(ms), Within: within})
	return nil
}

// ttlAlerts is POST /v1/memory/ttl-alerts (spec 4.9, free): renews the
// memories named, then lists those expiring within the window.
func (s *Server) ttlAlerts(c *gin.Context) error {
	var req wire.TTLAlertsRequest
	if err := bindJSON(c, &req, true); err != nil {
		return err
	}
	d, within, err := ttlParam(req.Within, "24h", "within")
	if err != nil {
		return err
	}
	renewFor, err := renewFor(&req)
	if err != nil {
		return err
	}
	agent := agentOf(c)
	renewed, n := renewedJSON(s.Memory.Renew(c.Request.Context(), agent.ID, req.RenewIDs, renewFor, requestID(c)))
	ms, err := s.Memory.Expiring(c.Request.Context(), agent.ID, req.Type, d, MaxPageSize)
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, wire.TTLAlerts{Expiring: expiringJSON(ms, s.Clock.Now()), ExpiringCount: len(ms),
		Within: within, Renewed: renewed, RenewedCount: n})
	return nil
}

// renewFor is the lifetime renewed memories get: renewExpiresIn, which
// renewIds require (0 when there are none).
func renewFor(r *wire.TTLAlertsRequest) (time.Duration, error) {
	if len(r.RenewIDs) == 0 {
		return 0, nil
	}
	if len(r.RenewIDs) > memory.MaxRenewIDs {
		return 0, cairn.Errorf(cairn.EINVALID, "At most %d renewIds.", memory.MaxRenewIDs).With("field", "renewIds")
	}
	if r.RenewExpiresIn == "" {
		return 0, cairn.Errorf(cairn.EINVALID, "renewExpiresIn is required with renewIds.").With("field", "renewExpiresIn")
	}
	d, _, err := ttlParam(r.RenewExpiresIn, "", "renewExpiresIn")
	return d, err
}

// renewedJSON renders the renewals, in the order asked, and counts those
// that succeeded.
func renewedJSON(rs []memory.Renewal) ([]wire.Renewal, int) {
	out, n := []wire.Renewal{}, 0
	for _, r := range rs {
		item := wire.Renewal{ID: r.ID, Success: r.Success}
		if r.Success {
			at := wire.At(r.NewExpiresAt)
			item.NewExpiresAt = &at
			n++
		} else {
			item.Error = r.Error
		}
		out = append(out, item)
	}
	return out, n
}
