package api_test

import (
	"net/http"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/internal/wiring"
)

// TestPublicLimitPerIPv6Network: the routes without an account are
// limited per client network, an IPv6 client by its /64 (which one
// subscriber holds whole), as registrations are: new addresses of the same
// /64 do not get a fresh allowance; another /64 does, and IPv4 clients are
// counted per address.
func TestPublicLimitPerIPv6Network(t *testing.T) {
	ls := apitest.NewServer(t, func(p *wiring.Parts) {
		p.TrustedProxies = []string{"127.0.0.1"}
		p.Limits.PublicPerIP = 2
	})
	stats := func(ip string) *apitest.Response {
		return ls.Do(t, http.MethodGet, "/v1/compliance/stats", "", nil, "X-Forwarded-For", ip)
	}
	stats("2001:db8:1:2::1").Must(t, http.StatusOK)
	stats("2001:db8:1:2::2").Must(t, http.StatusOK)
	r := stats("2001:db8:1:2:ffff:ffff:ffff:ffff").Problem(t, http.StatusTooManyRequests, cairn.ERATELIMIT)
	if r.Header.Get("Retry-After") == "" {
		t.Fatal("429 without Retry-After")
	}
	stats("2001:db8:1:3::1").Must(t, http.StatusOK)
	stats("198.51.100.1").Must(t, http.StatusOK)
	stats("198.51.100.1").Must(t, http.StatusOK)
	stats("198.51.100.2").Must(t, http.StatusOK)
}
