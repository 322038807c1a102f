package api

import (
	"net/http"
	"runtime/debug"

	"github.com/cairn-dev/cairn"
	"github.com/gin-gonic/gin"
)

// recoveryMiddleware turns a panic below it, in a middleware or a
// handler, into one log line (with the stack) and a 500 problem document
// with code internal; the panic's value never reaches the client.
// http.ErrAbortHandler is passed on: it means "drop the connection".
//
// It runs twice in the chain: first of all, so that nothing panics past it,
// and again after the request log and metrics, so that they record the
// 500 of a panic in a route's middleware or handler.
func recoveryMiddleware(c *gin.Context) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if r == http.ErrAbortHandler {
			panic(r)
		}
		loggerOf(c).ErrorContext(c.Request.Context(), "panic", "panic", r, "route", routeLabel(c), "stack", string(debug.Stack()))
		c.Abort()
		if c.Writer.Written() {
			return // a streamed body already started; the status cannot change
		}
		status, doc := problem(c, cairn.Errorf(cairn.EINTERNAL, "internal error"))
		c.Render(status, problemRender{doc})
	}()
	c.Next()
}
