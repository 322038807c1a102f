package compliance

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/screening"
)

// marshalResults is the results array as encoding/json encodes it, which
// appendResults must write byte for byte.
func marshalResults(t testing.TB, results []screening.Result, at string) []byte {
	var out []ScreenResult
	if results != nil {
		out = make([]ScreenResult, len(results))
	}
	for i, r := range results {
		out[i] = ScreenResult{Result: r, ScreenedAt: at}
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestAppendResultsAsMarshal(t *testing.T) {
	sdn := screening.Match{EntityID: "1", EntityName: "A <&> \"B\"\u2028\n", Programs: cairn.ProgramsOf([]string{"DPRK3", "<&>\u2028\xff"}), Source: screening.SourceGovSDN, Category: "sanctions", Severity: "critical"}
	plain := screening.Match{Source: "list:TRX", Category: "sanctions", Severity: "critical"}
	odd := screening.Match{EntityID: "\x00\x1f\x7f", EntityName: "bad \xff utf8 \xe2\x80", Source: "s\\t", Category: "\t\r\b\f", Severity: "é😀"}
	at := "2026-05-01T00:00:00.000Z"
	for name, rs := range map[string][]screening.Result{
		"Nil":   nil,
		"Empty": {},
		"Mixed": {
			{Address: "0xAbC", Chain: "ethereum", Status: screening.StatusSanctioned, Family: screening.EVM, Canonical: "0xabc", Checksum: "valid", Matches: []screening.Match{sdn, plain}},
			{Address: "nope<script>", Chain: "bitcoin", Status: screening.StatusInvalidAddress, Family: screening.Bitcoin, Checksum: "none", Matches: []screening.Match{}},
			{Address: "x", Chain: "y", Status: screening.StatusFlagged, Family: "z", Canonical: "\u2029", Checksum: "invalid", Matches: []screening.Match{odd}},
			{Address: "", Matches: nil},
		},
	} {
		t.Run(name, func(t *testing.T) {
			want := marshalResults(t, rs, at)
			if got := appendResults([]byte("prefix"), rs, at); !bytes.Equal(got[6:], want) {
				t.Fatalf("appendResults\n%s\nwant\n%s", got[6:], want)
			}
		})
	}
}

// FuzzAppendJSONString checks the string escaping, and a match and a
// result made of the strings, against encoding/json.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", `"\`, "<a href='x'>&amp;</a>", "\x00\x01\b\f\n\r\t\x1f\x7f", "\u2028\u2029", "\xff\xfe", "é😀\xe2\x80", "\xed\xa0\x80"} {
		f.Add(s, "e")
	}
	f.Fuzz(func(t *testing.T, s, e string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendJSONString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("appendJSONString(%q) = %s, want %s", s, got, want)
		}
		m := screening.Match{EntityID: e, EntityName: s, Programs: cairn.ProgramsOf([]string{s, e}), Source: s, Category: e, Severity: s}
		rs := []screening.Result{{Address: s, Chain: e, Status: s, Family: screening.Family(e), Canonical: s, Checksum: e, Matches: []screening.Match{m, m}}}
		if got, want := appendResults(nil, rs, e), marshalResults(t, rs, e); !bytes.Equal(got, want) {
			t.Fatalf("appendResults = %s, want %s", got, want)
		}
	})
}
