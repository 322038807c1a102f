package api

import "testing"

func BenchmarkNegotiate(b *testing.B) {
	const accept = "text/html, application/xhtml+xml, application/xml;q=0.9, text/markdown;q=0.95, */*;q=0.8"
	b.ReportAllocs()
	for b.Loop() {
		if negotiate(accept, skillOffers) != "text/markdown" {
			b.Fatal("wrong offer")
		}
	}
}

func TestETagMatch(t *testing.T) {
	const etag = `"abc"`
	for _, tc := range []struct {
		header string
		want   bool
	}{
		{`"abc"`, true}, {`W/"abc"`, true}, {`"x", "abc"`, true}, {"*", true},
		{"", false}, {`"abcd"`, false}, {`abc`, false},
	} {
		t.Run(tc.header, func(t *testing.T) {
			if got := etagMatch(tc.header, etag); got != tc.want {
				t.Fatalf("etagMatch(%q) = %v", tc.header, got)
			}
		})
	}
}
