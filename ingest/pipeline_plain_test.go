package ingest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/screening"
)

// plainReference is what ParsePlainList and the lister make of a list.
func plainReference(t *testing.T, in []byte, source string) (*screening.Listings, error) {
	t.Helper()
	var b screening.ListingsBuilder
	lr := newLister(source)
	_, err := ParsePlainList(bytes.NewReader(in), strings.TrimPrefix(source, sourceListPrefix), func(r Record) error {
		lr.add(&b, r)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return b.Sorted()
}

// TestIngestPlainParts: a plain list read in parts, on several workers,
// gives the listings ParsePlainList and the lister give, however it is
// split: a byte order mark, comments, blank and CRLF lines, white space,
// addresses too long or of no family, repeats, mixed case.
func TestIngestPlainParts(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	lines := []string{"# comment", "", "  ", "0x8589427373D6D84E98730D7795D8f6f8731FDA16\r", "not an address",
		"0x8589427373d6d84e98730d7795d8f6f8731fda16", "0x 1234", "\t0x7f367cc41522ce07553e823bf3be79a889debe1b  ",
		"12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h", strings.Repeat("a", 200), "TA3941uFAvmVibSkQ6fMJXxmaSNovX86mz"}
	for round := range 40 {
		var in bytes.Buffer
		if round%2 == 0 {
			in.WriteString("\xef\xbb\xbf")
		}
		for range rng.IntN(400) {
			if rng.IntN(3) == 0 {
				fmt.Fprintf(&in, "0x%040x\n", rng.Uint64()%50)
			} else {
				in.WriteString(lines[rng.IntN(len(lines))] + "\n")
			}
		}
		if rng.IntN(2) == 0 { // no final line end
			in.WriteString("0x7f367cc41522ce07553e823bf3be79a889debe1c")
		}
		want, err := plainReference(t, in.Bytes(), "list:ETH")
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{1, 2, 3, 7, 64} {
			var b screening.ListingsBuilder
			if err := ingestPlainParts(bytes.NewReader(in.Bytes()), int64(in.Len()), "ETH", "list:ETH", n, &b); err != nil {
				t.Fatal(err)
			}
			got, err := b.Sorted()
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(want) {
				t.Fatalf("round %d, %d parts: %d listings %v, want %d %v", round, n, got.Len(), slices.Collect(got.All()),
					want.Len(), slices.Collect(want.All()))
			}
		}
	}
}

// TestIngestPlainLongLine: a line over the limit fails the list whichever
// part holds it.
func TestIngestPlainLongLine(t *testing.T) {
	for _, at := range []int{0, 50, 99} {
		var in bytes.Buffer
		for i := range 100 {
			if i == at {
				in.WriteString(strings.Repeat("x", maxPlainLine+10) + "\n")
			}
			fmt.Fprintf(&in, "0x%040x\n", i)
		}
		for _, n := range []int{1, 2, 5} {
			var b screening.ListingsBuilder
			err := ingestPlainParts(bytes.NewReader(in.Bytes()), int64(in.Len()), "ETH", "list:ETH", n, &b)
			if !cairn.IsCode(err, cairn.EINVALID) {
				t.Fatalf("long line at %d, %d parts: %v", at, n, err)
			}
		}
	}
}

// TestPlainParts: parts start at line starts, in order, and cover the file.
func TestPlainParts(t *testing.T) {
	in := []byte("aa\nbbbb\n\ncc\nd")
	for n := 1; n <= 20; n++ {
		bounds, err := plainParts(bytes.NewReader(in), int64(len(in)), n)
		if err != nil {
			t.Fatal(err)
		}
		if bounds[0] != 0 || bounds[len(bounds)-1] != int64(len(in)) || len(bounds) > n+1 {
			t.Fatalf("n=%d: bounds %v", n, bounds)
		}
		for _, b := range bounds[1 : len(bounds)-1] {
			if in[b-1] != '\n' {
				t.Fatalf("n=%d: part at %d does not start a line", n, b)
			}
		}
		if !slices.IsSorted(bounds) || len(slices.Compact(slices.Clone(bounds))) != len(bounds) {
			t.Fatalf("n=%d: bounds %v", n, bounds)
		}
	}
}
