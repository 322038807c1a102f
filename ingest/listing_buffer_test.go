package ingest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/screening"
)

// TestListingBufferJoin: the joined listings are those added, in order,
// across chunk boundaries, in a slice of exactly their number.
func TestListingBufferJoin(t *testing.T) {
	for _, n := range []int{0, 1, listingChunk - 1, listingChunk, listingChunk + 1, 3*listingChunk + 7} {
		var b listingBuffer
		for i := range n {
			b.add(screening.Listing{Family: screening.EVM, Address: fmt.Sprintf("0x%040x", i)})
		}
		got := b.join()
		if len(got) != n || cap(got) != n {
			t.Fatalf("n=%d: joined %d listings, capacity %d", n, len(got), cap(got))
		}
		for i, l := range got {
			if want := fmt.Sprintf("0x%040x", i); l.Address != want {
				t.Fatalf("n=%d: listing %d is %s, want %s", n, i, l.Address, want)
			}
		}
		if again := b.join(); again != nil {
			t.Fatalf("n=%d: a second join returned %d listings", n, len(again))
		}
	}
}

// TestLineHint: a plain list read from a file is sized by the file; any
// other reader gets no hint.
func TestLineHint(t *testing.T) {
	path := filepath.Join(t.TempDir(), "list.txt")
	if err := os.WriteFile(path, []byte(strings.Repeat("0x7f367cc41522ce07553e823bf3be79a889debe1b\n", 1000)), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := lineHint(f); got != 1000 {
		t.Fatalf("hint for 1000 EVM lines: %d", got)
	}
	if got := lineHint(strings.NewReader("0x00\n")); got != 0 {
		t.Fatalf("hint for a non-file reader: %d", got)
	}
}
