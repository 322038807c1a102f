package secretfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestReadChecks(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s")
	if _, err := Read(p, 10); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
	if err := os.WriteFile(p, []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(p, 10); !errors.Is(err, ErrInsecure) || strings.Contains(err.Error(), "secret\"") {
		t.Fatalf("mode 0644: %v", err)
	}
	os.Chmod(p, 0o600)
	if b, err := Read(p, 10); err != nil || string(b) != "secret" {
		t.Fatalf("mode 0600: %q %v", b, err)
	}
	if _, err := Read(p, 3); err == nil || strings.Contains(err.Error(), "secret\"") {
		t.Fatalf("over the size cap: %v", err)
	}
	if _, err := Read(dir, 10); err == nil {
		t.Fatal("a directory was read as a secret file")
	}
}

// TestCreateOnce: of many concurrent creations one wins, the file holds
// its content with mode 0600, and no temporary file is left behind.
func TestCreateOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sub")
	p := filepath.Join(dir, "key")
	var wg sync.WaitGroup
	var mu sync.Mutex
	winners := []string{}
	for i := range 16 {
		wg.Go(func() {
			content := strings.Repeat(string(rune('a'+i)), 8)
			won, err := Create(p, []byte(content))
			if err != nil {
				t.Error(err)
			}
			if won {
				mu.Lock()
				winners = append(winners, content)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	b, err := Read(p, 64)
	if len(winners) != 1 || err != nil || string(b) != winners[0] {
		t.Fatalf("winners %v, file %q %v", winners, b, err)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", fi.Mode())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("%d entries left in the directory", len(entries))
	}
}
