package ingest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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
