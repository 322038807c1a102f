package api

import "testing"

func TestNegotiate(t *testing.T) {
	const js, md = "application/json", "text/markdown"
	cases := []struct{ accept, want string }{
		{"", js},
		{"text/markdown", md},
		{"TEXT/Markdown; charset=utf-8", md},
		{"application/json", js},
		{"*/*", js},
		{"text/*", md},
		{"application/*", js},
		{"text/markdown, application/json", js},
		{"text/markdown;q=1, application/json;q=0.9", md},
		{"application/json;q=0.5, text/markdown", md},
		{"text/markdown;q=0", js},
		{"text/markdown;q=0, */*", js},
		{"text/*;q=0.1, text/markdown;q=0", js},
		{"*/*;q=0.1, text/markdown", md},
		{"text/html", js},
		{"image/png, text/plain", js},
		{"text/markdown;q=abc", js},
		{"text/markdown;q=2", js},
		{"garbage, ,;;, text/markdown", md},
		{"*/markdown", js},
		{"text/markdown;level=1;q=0.8, application/json;q=0.7", md},
	}
	for _, tc := range cases {
		t.Run(tc.accept, func(t *testing.T) {
			if got := negotiate(tc.accept, skillOffers); got != tc.want {
				t.Fatalf("negotiate(%q) = %q, want %q", tc.accept, got, tc.want)
			}
		})
	}
}

// FuzzNegotiate: any Accept header gets one of the offers, and adding a
// lower-priority range for an offer never changes a Markdown answer.
func FuzzNegotiate(f *testing.F) {
	for _, s := range []string{"", "text/markdown", "*/*;q=0.5, text/markdown;q=0.7", "a/b;q=", ";;,,", "text/*;q=0.001"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, accept string) {
		got := negotiate(accept, skillOffers)
		if got != skillOffers[0] && got != skillOffers[1] {
			t.Fatalf("negotiate(%q) = %q", accept, got)
		}
		if got == "text/markdown" && quality(parseAccept(accept), got) <= 0 {
			t.Fatalf("negotiate(%q) chose Markdown with q 0", accept)
		}
	})
}
