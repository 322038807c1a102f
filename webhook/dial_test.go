package webhook_test

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/webhook"
)

func TestPublic(t *testing.T) {
	for _, tc := range []struct {
		ip     string
		public bool
	}{
		{"8.8.8.8", true}, {"2606:4700:4700::1111", true},
		{"127.0.0.1", false}, {"10.1.2.3", false}, {"172.16.0.1", false}, {"192.168.1.1", false},
		{"169.254.169.254", false}, {"100.64.0.1", false}, {"0.0.0.0", false}, {"255.255.255.255", false},
		{"::1", false}, {"::", false}, {"fe80::1", false}, {"fc00::1", false}, {"::ffff:127.0.0.1", false},
		{"::ffff:10.0.0.1", false}, {"64:ff9b::a00:1", false}, {"224.0.0.1", false}, {"198.18.0.1", false},
	} {
		if got := webhook.Public(netip.MustParseAddr(tc.ip)); got != tc.public {
			t.Errorf("Public(%s) = %v, want %v", tc.ip, got, tc.public)
		}
	}
}

func TestCheckURL(t *testing.T) {
	for _, tc := range []struct {
		url          string
		allowPrivate bool
		ok           bool
	}{
		{"https://hooks.example.com/x", false, true},
		{"http://hooks.example.com/x", false, false},
		{"http://127.0.0.1:8080/x", true, true},
		{"https://127.0.0.1/x", false, false},
		{"https://[::1]/x", false, false},
		{"https://localhost/x", false, false},
		{"https://user:pw@example.com/", false, false},
		{"ftp://example.com/", true, false},
		{"/relative", false, false},
	} {
		_, err := webhook.CheckURL(tc.url, tc.allowPrivate)
		if (err == nil) != tc.ok || err != nil && !cairn.IsCode(err, cairn.EINVALID) {
			t.Errorf("CheckURL(%q, %v) = %v, want ok %v", tc.url, tc.allowPrivate, err, tc.ok)
		}
	}
}

// FuzzCheckURL: CheckURL never panics, and a URL it accepts without
// private targets is https, without user information, and names no
// address that is not public.
func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{"https://example.com/x", "http://127.0.0.1/", "https://[::ffff:10.0.0.1]/", "https://0x7f.1/", "https://u@h/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := webhook.CheckURL(raw, false)
		if err != nil {
			return
		}
		if u.Scheme != "https" || u.User != nil {
			t.Fatalf("accepted %q", raw)
		}
		if ip, err := netip.ParseAddr(strings.Trim(u.Hostname(), "[]")); err == nil && !webhook.Public(ip) {
			t.Fatalf("accepted %q, which names %s", raw, ip)
		}
	})
}
