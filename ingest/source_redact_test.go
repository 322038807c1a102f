package ingest

import (
	"context"
	"os"
	"path/filepath"
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

// TestStoredFailureRedacted: a failure stored with a raw URL by an earlier
// release is redacted when the versions are listed and when it is restored
// into a source's state.
func TestStoredFailureRedacted(t *testing.T) {
	ctx := context.Background()
	list := filepath.Join(t.TempDir(), "eth.txt")
	if err := os.WriteFile(list, []byte("0x0000000000000000000000000000000000000001\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	db := tempStore(t)
	p, _ := newPipeline(t, Source{Name: "list:ETH", Location: list})
	p.Store = db
	if _, err := p.Run(ctx); err != nil {
		t.Fatal(err)
	}
	v, err := db.LastListVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	v.Version++
	sv := v.Sources["list:ETH"]
	sv.LastError = "fetch https://user:pw-secret@example.org/eth.txt?token=tok-secret: HTTP 500"
	v.Sources["list:ETH"] = sv
	if err := db.CommitListVersion(ctx, v, nil, nil); err != nil {
		t.Fatal(err)
	}
	const want = "fetch https://***@example.org/eth.txt?***: HTTP 500"
	vs, err := p.Versions(ctx, 0, 10)
	if err != nil || len(vs) != 2 || vs[0].Sources["list:ETH"].LastError != want {
		t.Fatalf("versions %+v %v", vs, err)
	}
	q, _ := newPipeline(t, Source{Name: "list:ETH", Location: list})
	q.Store = db
	if ok, err := q.Restore(ctx); !ok || err != nil {
		t.Fatalf("restore %v %v", ok, err)
	}
	if got := q.States()["list:ETH"].LastError; got != want {
		t.Fatalf("restored lastError %q, want %q", got, want)
	}
}
