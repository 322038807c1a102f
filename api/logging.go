package api

import (
	"context"
	"log/slog"

	"github.com/gin-gonic/gin"
)

// RequestIDHandler wraps h so that every record logged with a request's
// context carries that request's id as request_id. New wraps the
// configured logger with it (once), so the id is on every line the front
// end writes whatever logger the caller gives.
func RequestIDHandler(h slog.Handler) slog.Handler {
	if _, ok := h.(requestIDHandler); ok {
		return h
	}
	return requestIDHandler{h}
}

type requestIDHandler struct{ slog.Handler }

func (h requestIDHandler) Handle(ctx context.Context, r slog.Record) error {
	if id := RequestIDFrom(ctx); id != "" {
		r.AddAttrs(slog.String("request_id", id))
	}
	return h.Handler.Handle(ctx, r)
}

func (h requestIDHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return requestIDHandler{h.Handler.WithAttrs(as)}
}

func (h requestIDHandler) WithGroup(name string) slog.Handler {
	return requestIDHandler{h.Handler.WithGroup(name)}
}

// loggerKey holds the server's logger in the gin context, set by the
// first middleware, so that writeError and h (free functions) log through
// the configured logger.
const loggerKey = "cairn.logger"

// loggerOf returns the configured logger of the server handling c. Only a
// gin context that no Server built (a unit test of writeError) has none;
// it gets a logger that writes nowhere rather than the process default.
func loggerOf(c *gin.Context) *slog.Logger {
	if l, ok := c.Get(loggerKey); ok {
		return l.(*slog.Logger)
	}
	return discardLogger
}

var discardLogger = slog.New(slog.DiscardHandler)
