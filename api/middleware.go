package api

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/gin-gonic/gin"
)

type ctxKey int

const requestIDKey ctxKey = iota

// RequestIDFrom returns the request id carried by ctx ("" when none). The
// log handler of cmd/cairn uses it to put the id on every line.
func RequestIDFrom(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey).(string)
	return id
}

func requestID(c *gin.Context) string { return RequestIDFrom(c.Request.Context()) }

// validRequestID accepts a caller's X-Request-Id when it is short and
// harmless in logs and headers.
func validRequestID(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

func (s *Server) requestIDMiddleware(c *gin.Context) {
	id := c.GetHeader("X-Request-Id")
	if !validRequestID(id) {
		id = cairn.NewID()
	}
	c.Request = c.Request.WithContext(context.WithValue(c.Request.Context(), requestIDKey, id))
	c.Set(loggerKey, s.Logger)
	c.Header("X-Request-Id", id)
	c.Next()
}

// routeLabel is the route pattern of the request for logs and metrics
// ("unmatched" for a request no route took), never the raw path, so that
// ids in paths do not explode label sets.
func routeLabel(c *gin.Context) string {
	if r := c.FullPath(); r != "" {
		return r
	}
	return "unmatched"
}

func (s *Server) logMiddleware(c *gin.Context) {
	start := time.Now()
	c.Next()
	attrs := []any{
		"method", c.Request.Method, "route", routeLabel(c), "status", c.Writer.Status(),
		"bytes", c.Writer.Size(), "duration_ms", float64(time.Since(start).Microseconds()) / 1000, "ip", c.ClientIP(),
	}
	if p, ok := c.Get(principalKey); ok {
		pr := p.(*principal)
		if pr.Agent != nil {
			attrs = append(attrs, "agent_id", pr.Agent.ID)
		}
		attrs = append(attrs, "developer_id", pr.DeveloperID)
	}
	level := slog.LevelInfo
	if c.Writer.Status() >= 500 {
		level = slog.LevelError
	}
	s.Logger.Log(c.Request.Context(), level, "request", attrs...)
}

// bodyLimitMiddleware bounds every request body; routes that take file
// uploads raise the bound for themselves.
func (s *Server) bodyLimitMiddleware(c *gin.Context) {
	if c.Request.Body != nil && c.Request.Body != http.NoBody {
		if c.Request.ContentLength > s.Limits.MaxBodyBytes && !rawBodyRoute(c) {
			writeError(c, cairn.Errorf(cairn.ETOOLARGE, "Request body exceeds %d bytes.", s.Limits.MaxBodyBytes).With("limit", s.Limits.MaxBodyBytes))
			return
		}
		if !rawBodyRoute(c) {
			c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, s.Limits.MaxBodyBytes)
		}
	}
	c.Next()
}

// rawBodyRoute reports whether the route sets its own body limit (uploads).
func rawBodyRoute(c *gin.Context) bool {
	_, ok := uploadRoutes[c.FullPath()]
	return ok
}

// uploadRoutes are the routes that take multipart bodies up to their own
// limit (the value); each enforces it itself.
var uploadRoutes = map[string]int64{}

// bodyLimit is the largest request body the route takes.
func (s *Server) bodyLimit(c *gin.Context) int64 {
	if n, ok := uploadRoutes[c.FullPath()]; ok {
		return n
	}
	return s.Limits.MaxBodyBytes
}
