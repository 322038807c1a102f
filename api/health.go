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

// readyz reports readiness: the store answers within two seconds.
func (s *Server) readyz(c *gin.Context) error {
	ctx, cancel := context.WithTimeout(c.Request.Context(), 2*time.Second)
	defer cancel()
	if err := s.Health.Ping(ctx); err != nil {
		s.Logger.WarnContext(ctx, "readiness check failed", "err", err)
		return cairn.Errorf(cairn.EUNAVAILABLE, "The store is not reachable.")
	}
	writeJSON(c, http.StatusOK, wire.Status{Status: "ready"})
	return nil
}
