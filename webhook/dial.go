package webhook

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/cairn-dev/cairn"
)

// ErrNotPublic is the error of a connection refused because its address
// is not public.
var ErrNotPublic = errors.New("webhook: target address is not public")

// nonPublic are the ranges no webhook may reach besides those netip
// classifies (loopback, private, link-local, multicast, unspecified).
var nonPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // this network
	netip.MustParsePrefix("100.64.0.0/10"),   // shared address space (carrier-grade NAT)
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("192.0.2.0/24"),    // documentation
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("198.51.100.0/24"), // documentation
	netip.MustParsePrefix("203.0.113.0/24"),  // documentation
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, broadcast
	netip.MustParsePrefix("64:ff9b::/96"),    // NAT64: would reach any IPv4 address
	netip.MustParsePrefix("64:ff9b:1::/48"),  // local-use NAT64
	netip.MustParsePrefix("2001:db8::/32"),   // documentation
	netip.MustParsePrefix("2002::/16"),       // 6to4: embeds an IPv4 address
	netip.MustParsePrefix("100::/64"),        // discard-only
}

// Public reports whether ip is a public unicast address a webhook may
// reach (an IPv4-mapped IPv6 address is judged as its IPv4 address).
func Public(ip netip.Addr) bool {
	ip = ip.Unmap()
	if !ip.IsValid() || ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() {
		return false
	}
	for _, p := range nonPublic {
		if p.Contains(ip) {
			return false
		}
	}
	return true
}

// ClientOptions bound the outgoing requests.
type ClientOptions struct {
	// AllowPrivate lets requests reach non-public addresses (tests and
	// internal deployments).
	AllowPrivate bool
	// Timeout bounds a whole request (connect, TLS, headers, body).
	Timeout time.Duration
}

// NewClient returns the client deliveries are sent with: no proxy, no
// redirect followed, every connection's address checked when it is made
// (after DNS resolution, so that a name resolving to an inside address,
// at registration or later, is refused), and Timeout for the whole
// request.
func NewClient(o ClientOptions) *http.Client {
	d := &net.Dialer{Timeout: o.Timeout}
	if !o.AllowPrivate {
		d.Control = func(network, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil || !Public(ap.Addr()) {
				return fmt.Errorf("%w: %s", ErrNotPublic, address)
			}
			return nil
		}
	}
	tr := &http.Transport{
		Proxy:                 nil,
		DialContext:           d.DialContext,
		TLSHandshakeTimeout:   o.Timeout,
		ResponseHeaderTimeout: o.Timeout,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       90 * time.Second,
		ForceAttemptHTTP2:     true,
	}
	return &http.Client{Transport: tr, Timeout: o.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// CheckURL validates an endpoint URL at registration: absolute, https
// (http too when private targets are allowed), no user information, no
// fragment, and, when its host is an IP address, a public one unless
// allowed. Names are checked again at every connection (NewClient).
func CheckURL(raw string, allowPrivate bool) (*url.URL, error) {
	bad := func(why string) error {
		return cairn.Errorf(cairn.EINVALID, "url %s.", why).With("field", "url")
	}
	if len(raw) > 2048 {
		return nil, bad("must be at most 2048 characters")
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return nil, bad("must be an absolute URL")
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && allowPrivate:
	default:
		return nil, bad("must be https")
	}
	if u.User != nil || u.Fragment != "" {
		return nil, bad("must hold no user information and no fragment")
	}
	host := strings.Trim(u.Hostname(), "[]")
	if ip, err := netip.ParseAddr(host); err == nil && !allowPrivate && !Public(ip) {
		return nil, bad("must reach a public address")
	}
	if !allowPrivate && (host == "localhost" || strings.HasSuffix(host, ".localhost")) {
		return nil, bad("must reach a public address")
	}
	return u, nil
}

// dialRefused reports whether err is a connection refused by the
// address check.
func dialRefused(err error) bool { return errors.Is(err, ErrNotPublic) }
