package ingest

import (
	"strings"
	"unicode/utf8"
)

// remarkAddress is one "Digital Currency Address - XBT <addr>" clause.
type remarkAddress struct{ ticker, address string }

// remarkAddresses extracts the digital currency addresses from an OFAC
// remarks text (sdn.csv remarks merged with sdn_comments.csv). Clauses are
// separated by "; ", may start with "alt. ", and the last one ends with a
// period. Malformed clauses are counted in skip.
func remarkAddresses(remarks string, skip func(reason string)) []remarkAddress {
	var out []remarkAddress
	for rest := remarks; rest != ""; {
		i := strings.Index(rest, dcaPrefix)
		if i < 0 {
			break
		}
		rest = rest[i+len(dcaPrefix):]
		clause := rest
		if j := strings.IndexByte(clause, ';'); j >= 0 {
			clause, rest = clause[:j], clause[j+1:]
		} else {
			rest = ""
		}
		f := strings.Fields(clause)
		switch {
		case len(f) == 0:
			skip("remark address clause without currency")
			continue
		case len(f) == 1:
			skip("remark address clause without address")
			continue
		case len(f) > 2:
			skip("remark address clause with trailing text")
			continue
		}
		// The final clause of a remark ends the sentence with a period;
		// no address format uses '.'.
		addr := strings.TrimRight(f[1], ".")
		if addr == "" {
			skip("remark address clause without address")
			continue
		}
		out = append(out, remarkAddress{strings.ToUpper(f[0]), addr})
	}
	return out
}

// toUTF8 returns s unchanged when it is valid UTF-8, and otherwise decodes it
// as Latin-1, the legacy encoding of the OFAC CSV files.
func toUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	for i := 0; i < len(s); i++ {
		b.WriteRune(rune(s[i]))
	}
	return b.String()
}
