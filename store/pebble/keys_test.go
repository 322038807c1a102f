package pebble

import (
	"bytes"
	"strings"
	"testing"
)

func TestPrefixesDisjoint(t *testing.T) {
	for i, a := range prefixes {
		if !strings.HasSuffix(a, "/") {
			t.Errorf("prefix %q does not end with a slash", a)
		}
		for j, b := range prefixes {
			if i != j && strings.HasPrefix(b, a) {
				t.Errorf("prefix %q is a prefix of %q", a, b)
			}
		}
	}
}

func TestComponentOrder(t *testing.T) {
	// Sorted as strings; the encoded forms must sort the same way and no
	// encoded form may be a prefix of another.
	sorted := []string{"", "\x00", "\x00\x00", "\x00a", "\x01", "a", "a\x00", "a\x00b", "a/", "a/b", "ab", "b", "\xff", "\xff\xff"}
	for i := 1; i < len(sorted); i++ {
		a, b := appendComponent(nil, sorted[i-1]), appendComponent(nil, sorted[i])
		if bytes.Compare(a, b) >= 0 {
			t.Errorf("encoded %q >= encoded %q", sorted[i-1], sorted[i])
		}
		if bytes.HasPrefix(b, a) {
			t.Errorf("encoded %q is a prefix of encoded %q", sorted[i-1], sorted[i])
		}
	}
}

func TestReadComponentErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []byte
	}{
		{"Unterminated", []byte("abc")},
		{"Truncated", []byte("abc\x00")},
		{"BadEscape", []byte("a\x00\x02")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, _, err := readComponent(tc.in); err == nil {
				t.Fatalf("readComponent(%q) succeeded", tc.in)
			}
		})
	}
}

func TestPrefixEnd(t *testing.T) {
	for _, tc := range []struct{ in, want []byte }{
		{[]byte("ab"), []byte("ac")},
		{[]byte{'a', 0xff}, []byte("b")},
		{[]byte{0xff, 0xff}, nil},
	} {
		if got := prefixEnd(tc.in); !bytes.Equal(got, tc.want) {
			t.Errorf("prefixEnd(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzComponent checks that identifiers from outside (developer ids from
// JWT subjects, setting names, unique keys) round-trip through the key
// encoding and keep their order.
func FuzzComponent(f *testing.F) {
	f.Add("dev-1", "dev-1/x")
	f.Add("\x00", "\x00\xff")
	f.Add("", "a\x00\x01")
	f.Fuzz(func(t *testing.T, a, b string) {
		ea := appendComponent([]byte("p/"), a)
		got, rest, err := readComponent(append(ea[2:], 'x'))
		if err != nil || got != a || string(rest) != "x" {
			t.Fatalf("readComponent(encode(%q)) = %q, %q, %v", a, got, rest, err)
		}
		eb := appendComponent([]byte("p/"), b)
		if c := bytes.Compare(ea, eb); c != strings.Compare(a, b) {
			t.Fatalf("encoded order %d, string order %d for %q, %q", c, strings.Compare(a, b), a, b)
		}
		if a != b && (bytes.HasPrefix(ea, eb) || bytes.HasPrefix(eb, ea)) {
			t.Fatalf("one of %q, %q encodes to a prefix of the other", a, b)
		}
	})
}
