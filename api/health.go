package api

import (
	"context"
	"net/http"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/wire"
	"github.com/gin-gonic/gin"
)

// healthz reports liveness: the process serves HTTP.
func (s *Server) healthz(c *gin.Context) error {
	writeJSON(c, http.StatusOK, wire.Status{Status: "ok"})
	return nil
}

// readyz reports readiness: whether this instance can serve its
// requests. It is not ready while the store does not answer within two
// seconds, or (ListRequired) while no sanctions list is loaded, when every
// screening would be refused. A failing anchor or oracle, a source whose
// latest ingestion failed, or a node that does not answer leaves it ready:
// screening and proofs are answered from the loaded list without the
// chain, and every instance shares the same chain, so taking them out of
// a load balancer would stop the service without fixing anything. Those
// show in /metrics and GET /v1/compliance/merkle-root.
func (s *Server) readyz(c *gin.Context) error {
	ctx, cancel := context.WithTimeout(c.Request.Context(), 2*time.Second)
	defer cancel()
	if err := s.Health.Ping(ctx); err != nil {
		s.Logger.WarnContext(ctx, "readiness check failed", "err", err)
		return cairn.Errorf(cairn.EUNAVAILABLE, "The store is not reachable.")
	}
	if s.ListRequired && s.Compliance.CheckReady() != nil {
		return cairn.Errorf(cairn.EUNAVAILABLE, "No sanctions list is loaded yet: every source failed so far, and none was stored before.")
	}
	writeJSON(c, http.StatusOK, wire.Status{Status: "ready"})
	return nil
}
