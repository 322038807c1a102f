package cairn

import (
	"context"
	"errors"
	"fmt"
	"slices"
)

// Error codes. Each code is stable: clients may match on it. The HTTP front
// end maps every code to exactly one status in one table (api/errors.go).
const (
	EINVALID          = "invalid"                // malformed or invalid input (400)
	EUNAUTHORIZED     = "unauthorized"           // missing or bad credentials (401)
	EPAYMENT          = "insufficient_credits"   // balance too low for the operation (402)
	EFORBIDDEN        = "forbidden"              // authenticated but not allowed, e.g. revoked agent (403)
	ENOTFOUND         = "not_found"              // unknown resource, or not the caller's (404)
	EEXPIRED          = "expired"                // the resource existed but its time to live passed (404)
	EMETHOD           = "method_not_allowed"     // route exists, method does not (405)
	ECONFLICT         = "conflict"               // duplicate key or state conflict (409)
	EALREADYCREDITED  = "already_credited"       // a deposit transaction was credited before (409)
	EPENDING          = "transaction_pending"    // an on-chain transaction is not committed yet (409, retry)
	EPRECONDITION     = "precondition_failed"    // If-Match did not match (412)
	ETOOLARGE         = "payload_too_large"      // body or file above the limit (413)
	EUNSUPPORTEDMEDIA = "unsupported_media_type" // wrong Content-Type (415)
	ERANGE            = "range_not_satisfiable"  // Range outside the content (416)
	EUNPROCESSABLE    = "unprocessable"          // well-formed but rejected, e.g. credentials in shared content (422)
	ERATELIMIT        = "rate_limited"           // a rate limit was exceeded (429)
	EINTERNAL         = "internal"               // a bug or an unexpected failure (500)
	EUPSTREAM         = "upstream"               // the blob store or another upstream failed (502)
	EUNAVAILABLE      = "unavailable"            // not ready, e.g. store unreachable (503)
)

// Codes lists every code, in the order above. The HTTP front end's table test
// checks that each one has a status.
var Codes = []string{
	EINVALID, EUNAUTHORIZED, EPAYMENT, EFORBIDDEN, ENOTFOUND, EEXPIRED, EMETHOD, ECONFLICT, EALREADYCREDITED, EPENDING,
	EPRECONDITION, ETOOLARGE, EUNSUPPORTEDMEDIA, ERANGE, EUNPROCESSABLE, ERATELIMIT,
	EINTERNAL, EUPSTREAM, EUNAVAILABLE,
}

// Error is an error a client may see. Code is one of the constants above,
// Message is safe to show, and Details carries machine-readable extension
// members of the problem document (for example the credits needed and
// available on EPAYMENT). Any error that is not an *Error is internal and its
// text never reaches a client.
type Error struct {
	Code    string
	Message string
	Details map[string]any
}

func (e *Error) Error() string {
	return fmt.Sprintf("cairn error: code=%s message=%s", e.Code, e.Message)
}

// Errorf returns an *Error with the code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// With returns a copy of e with the extension member k set to v.
func (e *Error) With(k string, v any) *Error {
	d := make(map[string]any, len(e.Details)+1)
	for kk, vv := range e.Details {
		d[kk] = vv
	}
	d[k] = v
	return &Error{Code: e.Code, Message: e.Message, Details: d}
}

// ErrorCode returns the code of the first *Error in err's chain, EINTERNAL for
// any other non-nil error, and "" for nil.
func ErrorCode(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the message of the first *Error in err's chain, and a
// generic text for any other non-nil error.
func ErrorMessage(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Message
	}
	return "Internal error."
}

// IsCode reports whether err carries the given code.
func IsCode(err error, code string) bool { return ErrorCode(err) == code }

// Upstream reports err, a failure of a service the caller stands on (the
// blob store), as EUPSTREAM with the message msg for the client, err kept
// in the chain for the logs. An error whose code is in keep (the codes a
// caller passes on to its client as they are) and a bare cancellation or
// deadline of a context (the caller's, not the upstream's failure) are
// returned as they are.
func Upstream(err error, msg string, keep ...string) error {
	if err == nil {
		return nil
	}
	code := ErrorCode(err)
	if slices.Contains(keep, code) ||
		code == EINTERNAL && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		return err
	}
	return fmt.Errorf("%w: %w", Errorf(EUPSTREAM, "%s", msg), err)
}
