package api

import (
	"errors"
	"net/http"

	"github.com/cairn-dev/cairn"
	"github.com/gin-gonic/gin"
)

// statusOf is THE table from error code to HTTP status. No handler picks a
// status for an error; every error response goes through writeError.
var statusOf = map[string]int{
	cairn.EINVALID:          http.StatusBadRequest,
	cairn.EUNAUTHORIZED:     http.StatusUnauthorized,
	cairn.EPAYMENT:          http.StatusPaymentRequired,
	cairn.EFORBIDDEN:        http.StatusForbidden,
	cairn.ENOTFOUND:         http.StatusNotFound,
	cairn.EEXPIRED:          http.StatusNotFound,
	cairn.EMETHOD:           http.StatusMethodNotAllowed,
	cairn.ECONFLICT:         http.StatusConflict,
	cairn.EALREADYCREDITED:  http.StatusConflict,
	cairn.EPENDING:          http.StatusConflict,
	cairn.EPRECONDITION:     http.StatusPreconditionFailed,
	cairn.ETOOLARGE:         http.StatusRequestEntityTooLarge,
	cairn.EUNSUPPORTEDMEDIA: http.StatusUnsupportedMediaType,
	cairn.ERANGE:            http.StatusRequestedRangeNotSatisfiable,
	cairn.EUNPROCESSABLE:    http.StatusUnprocessableEntity,
	cairn.ERATELIMIT:        http.StatusTooManyRequests,
	cairn.EINTERNAL:         http.StatusInternalServerError,
	cairn.EUPSTREAM:         http.StatusBadGateway,
	cairn.EUNAVAILABLE:      http.StatusServiceUnavailable,
}

// StatusOf returns the HTTP status for an error code (500 for an unknown
// code, which the table test rules out).
func StatusOf(code string) int {
	if s, ok := statusOf[code]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// errStatus is the HTTP status of err's response.
func errStatus(err error) int { return StatusOf(cairn.ErrorCode(err)) }

// ProblemType is the prefix of the "type" member of problem documents; the
// code follows it.
const ProblemType = "urn:cairn:problem:"

// reserved problem members that Details may not override.
var reserved = map[string]bool{"type": true, "title": true, "status": true, "detail": true, "instance": true, "code": true, "requestId": true}

// problem builds the RFC 9457 document for err.
func problem(c *gin.Context, err error) (int, map[string]any) {
	code := cairn.ErrorCode(err)
	status := StatusOf(code)
	doc := map[string]any{
		"type":      ProblemType + code,
		"title":     http.StatusText(status),
		"status":    status,
		"detail":    cairn.ErrorMessage(err),
		"instance":  c.Request.URL.Path,
		"code":      code,
		"requestId": requestID(c),
	}
	var e *cairn.Error
	if errors.As(err, &e) {
		for k, v := range e.Details {
			if !reserved[k] {
				doc[k] = v
			}
		}
	}
	return status, doc
}

// writeError renders err as application/problem+json and aborts the chain.
// Internal errors are logged with the request id; their text never leaves
// the server.
func writeError(c *gin.Context, err error) {
	status, doc := problem(c, err)
	if status >= 500 {
		loggerOf(c).ErrorContext(c.Request.Context(), "request failed", "code", doc["code"], "err", err)
	}
	if status == http.StatusUnauthorized {
		c.Header("WWW-Authenticate", `Bearer realm="cairn"`)
	}
	if status == http.StatusServiceUnavailable && c.Writer.Header().Get("Retry-After") == "" {
		// A store or list that is back in a moment: say when to try again.
		c.Header("Retry-After", "1")
	}
	c.Abort()
	if c.Writer.Written() {
		return // a streamed body already started; the status cannot change
	}
	c.Render(status, problemRender{doc})
}

type problemRender struct{ doc map[string]any }

func (p problemRender) Render(w http.ResponseWriter) error {
	p.WriteContentType(w)
	return jsonEncode(w, p.doc)
}

func (p problemRender) WriteContentType(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/problem+json")
}
