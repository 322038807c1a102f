package ingest

import (
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"github.com/cairn-dev/cairn"
)

// RedactLocation is a source location as it may be shown or logged: an
// http(s) URL loses its user info and its query string (where keys are
// usually passed), replaced by "***", and its fragment. A file path is
// shown as is. Each item of a comma-separated location is redacted.
func RedactLocation(loc string) string {
	if strings.Contains(loc, ",") {
		parts := strings.Split(loc, ",")
		for i, p := range parts {
			parts[i] = RedactLocation(strings.TrimSpace(p))
		}
		return strings.Join(parts, ",")
	}
	if !isHTTP(loc) {
		return loc
	}
	u, err := url.Parse(loc)
	if err != nil {
		return "(unparsable URL)"
	}
	out := u.Scheme + "://"
	if u.User != nil {
		out += "***@"
	}
	out += u.Host + u.EscapedPath()
	if u.RawQuery != "" || u.ForceQuery {
		out += "?***"
	}
	return out
}

// urlInText finds http(s) URLs in a message.
var urlInText = regexp.MustCompile(`https?://[^\s"'<>]+`)

// RedactText redacts every http(s) URL in a message (see RedactLocation):
// what a source's failure says, before it is stored, served or logged,
// including a failure stored by an earlier release.
func RedactText(s string) string {
	if !strings.Contains(s, "://") {
		return s
	}
	return urlInText.ReplaceAllStringFunc(s, func(u string) string {
		trimmed := strings.TrimRight(u, ".,:;)]")
		return RedactLocation(trimmed) + u[len(trimmed):]
	})
}

// isHTTP says whether a location is fetched over HTTP.
func isHTTP(loc string) bool {
	return strings.HasPrefix(loc, "http://") || strings.HasPrefix(loc, "https://")
}

// transportError is the cause of a failed request without the URL that
// net/http puts in it (with its query string and user name).
func transportError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// ParseSourceHeaderFlag parses SOURCE:HEADER=VALUE, a header sent with
// every request for a source fetched over HTTP (for example
// gov_sdn:Authorization=Bearer k, or list:ETH:X-Api-Key=k), so that a key
// need not sit in the source's URL. The error never holds the value.
func ParseSourceHeaderFlag(s string) (source, name, value string, err error) {
	left, value, ok := strings.Cut(s, "=")
	i := strings.LastIndex(left, ":")
	if !ok || i <= 0 {
		return "", "", "", cairn.Errorf(cairn.EINVALID, "source header: want SOURCE:HEADER=VALUE, e.g. gov_sdn:Authorization=Bearer KEY")
	}
	source, name = strings.TrimSpace(left[:i]), strings.TrimSpace(left[i+1:])
	value = strings.TrimSpace(value)
	if !validHeaderName(name) {
		return "", "", "", cairn.Errorf(cairn.EINVALID, "source header of %s: %q is not a header name", source, name)
	}
	if value == "" || strings.ContainsAny(value, "\r\n\x00") {
		return "", "", "", cairn.Errorf(cairn.EINVALID, "source header %s of %s: want a non-empty value on one line", name, source)
	}
	return source, http.CanonicalHeaderKey(name), value, nil
}

// validHeaderName says whether s is an HTTP token (RFC 9110 5.1).
func validHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
		if !ok {
			return false
		}
	}
	return true
}
