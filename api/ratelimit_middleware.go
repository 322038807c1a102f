package api

import (
	"fmt"
	"math"
	"net/http"
	"net/netip"
	"strconv"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/ratelimit"
	"github.com/gin-gonic/gin"
)

// policy names one limit in the RateLimit and RateLimit-Policy headers
// (IETF draft-ietf-httpapi-ratelimit-headers).
type policy struct {
	name string
	l    *ratelimit.Limiter
	key  func(c *gin.Context) string
	// when reports whether the limit applies to this request.
	when func(c *gin.Context) bool
}

// readPosts are the POST routes that only read: searches, screening and
// Merkle proof lookups take a body but change no stored data, so they are
// reads (spec 8: no limit but the per-key cap), not writes.
var readPosts = map[string]bool{
	"/v1/memory/search":                 true,
	"/v1/memory/vector-search":          true,
	"/v1/compliance/screen":             true,
	"/v1/compliance/merkle-proof/batch": true,
}

// isWrite reports whether the request is an operation that changes stored
// data, the kind the write limit counts.
func isWrite(c *gin.Context) bool {
	switch c.Request.Method {
	case http.MethodPost:
		return !readPosts[c.FullPath()]
	case http.MethodPut, http.MethodPatch, http.MethodDelete:
		return true
	}
	return false
}

func always(*gin.Context) bool { return true }

// rateLimit enforces the policies in order. Every response carries the
// headers of the policy closest to exhaustion; a denied request gets 429
// with Retry-After and is never charged (billing runs after this).
func (s *Server) rateLimit(policies ...policy) gin.HandlerFunc {
	return func(c *gin.Context) {
		now := s.Clock.Now()
		var (
			tightest  cairn.RateTake
			tightName string
			policyHdr string
		)
		for i, p := range policies {
			if !p.l.Enabled() || !p.when(c) {
				continue
			}
			d, err := p.l.Take(c.Request.Context(), p.name+"\x00"+p.key(c), now)
			if err != nil {
				writeError(c, err)
				return
			}
			if policyHdr != "" {
				policyHdr += ", "
			}
			policyHdr += fmt.Sprintf("%q;q=%d;w=%d", p.name, p.l.Limit, int(p.l.Period.Seconds()))
			if !d.Allowed {
				c.Header("RateLimit-Policy", policyHdr)
				c.Header("RateLimit", fmt.Sprintf("%q;r=0;t=%s", p.name, seconds(d.RetryAfter)))
				c.Header("Retry-After", seconds(d.RetryAfter))
				writeError(c, cairn.Errorf(cairn.ERATELIMIT, "Rate limit %q exceeded: %d requests per %s. Retry in %s s.",
					p.name, p.l.Limit, p.l.Period, seconds(d.RetryAfter)).With("limit", p.l.Limit).With("policy", p.name))
				return
			}
			if i == 0 || tightName == "" || d.Remaining < tightest.Remaining {
				tightest, tightName = d, p.name
			}
		}
		if tightName != "" {
			c.Header("RateLimit-Policy", policyHdr)
			c.Header("RateLimit", fmt.Sprintf("%q;r=%d;t=%s", tightName, tightest.Remaining, seconds(tightest.Reset)))
		}
		c.Next()
	}
}

func clientIP(c *gin.Context) string { return c.ClientIP() }

// clientNet is the client's network for limits on free things: an IPv4
// address as it is, an IPv6 address by its /64, the smallest block an
// ISP hands one subscriber (who can otherwise pick any of 2^64
// addresses).
func clientNet(c *gin.Context) string {
	ip, err := netip.ParseAddr(c.ClientIP())
	if err != nil {
		return c.ClientIP()
	}
	ip = ip.Unmap()
	if ip.Is4() {
		return ip.String()
	}
	p, _ := ip.Prefix(64)
	return p.String()
}

// everyone is the key of a limit shared by all clients.
func everyone(*gin.Context) string { return "*" }

// seconds rounds a duration up to whole seconds, at least 1 when positive.
func seconds(d time.Duration) string {
	if d <= 0 {
		return "0"
	}
	return strconv.FormatInt(int64(math.Ceil(d.Seconds())), 10)
}
