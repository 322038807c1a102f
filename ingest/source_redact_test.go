package ingest

import (
	"strings"
	"testing"
)

func TestRedactLocation(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"https://example.org/SDN.XML", "https://example.org/SDN.XML"},
		{"https://user:pass@example.org/a/b.xml?token=k&x=1#frag", "https://***@example.org/a/b.xml?***"},
		{"http://tokenonly@example.org:8080/x", "http://***@example.org:8080/x"},
		{"http://example.org/x?", "http://example.org/x?***"},
		{"/srv/lists/sdn.csv,https://u:p@h/c.csv?k=1", "/srv/lists/sdn.csv,https://***@h/c.csv?***"},
		{"testdata/eth.txt", "testdata/eth.txt"},
	} {
		if got := RedactLocation(tc.in); got != tc.want {
			t.Errorf("RedactLocation(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	msg := `fetch https://u:p@h/x?key=k: Get "https://u:***@h/x?key=k": dial tcp: refused`
	if got, want := RedactText(msg), `fetch https://***@h/x?***: Get "https://***@h/x?***": dial tcp: refused`; got != want {
		t.Errorf("RedactText = %q, want %q", got, want)
	}
}

func TestParseSourceHeaderFlag(t *testing.T) {
	src, name, value, err := ParseSourceHeaderFlag("list:ETH:x-api-key=a=b c")
	if err != nil || src != "list:ETH" || name != "X-Api-Key" || value != "a=b c" {
		t.Fatalf("got %q %q %q %v", src, name, value, err)
	}
	for _, bad := range []string{"gov_sdn=secretvalue", "gov_sdn:Bad Name=secretvalue", "gov_sdn:Authorization=", ":Authorization=secretvalue"} {
		if _, _, _, err := ParseSourceHeaderFlag(bad); err == nil {
			t.Errorf("%q accepted", bad)
		} else if strings.Contains(err.Error(), "secretvalue") {
			t.Errorf("%q: the error holds the value: %v", bad, err)
		}
	}
}
