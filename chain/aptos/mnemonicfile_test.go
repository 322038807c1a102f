package aptos

import (
	"bytes"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-dev/cairn"
)

// captureLog returns a logger writing text records to the returned buffer.
func captureLog() (*slog.Logger, *bytes.Buffer) {
	var buf bytes.Buffer
	return slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})), &buf
}

// assertNoMnemonic fails if any two consecutive words of m appear in out.
func assertNoMnemonic(t *testing.T, out, m string) {
	t.Helper()
	w := strings.Fields(m)
	for i := 0; i+1 < len(w); i++ {
		if pair := w[i] + " " + w[i+1]; strings.Contains(out, pair) {
			t.Fatalf("output quotes the mnemonic (%q): %s", pair, out)
		}
	}
}

func TestLoadOrCreateMnemonicCreatesThenReuses(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data") // not there yet
	log, buf := captureLog()
	m, created, err := LoadOrCreateMnemonic(dir, "", log)
	if err != nil {
		t.Fatal(err)
	}
	if !created {
		t.Fatal("created = false on an empty data directory")
	}
	if n := len(strings.Fields(m)); n != 24 {
		t.Fatalf("generated mnemonic has %d words", n)
	}
	path := filepath.Join(dir, MnemonicFile)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := fi.Mode().Perm(); perm != 0o600 {
		t.Errorf("file mode = %04o, want 0600", perm)
	}
	if b, _ := os.ReadFile(path); string(b) != m+"\n" {
		t.Errorf("file holds %d bytes that are not the mnemonic", len(b))
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("data directory holds %d entries, want only %s", len(entries), MnemonicFile)
	}
	out := buf.String()
	if !strings.Contains(out, "level=WARN") || !strings.Contains(out, "back up") || !strings.Contains(out, path) {
		t.Errorf("log lacks a warning to back up %s: %s", path, out)
	}
	assertNoMnemonic(t, out, m)

	log2, buf2 := captureLog()
	again, created, err := LoadOrCreateMnemonic(dir, "", log2)
	if err != nil {
		t.Fatal(err)
	}
	if created || again != m {
		t.Fatalf("second call: created=%v, same mnemonic=%v; want false, true", created, again == m)
	}
	if buf2.Len() != 0 {
		t.Errorf("second call logged: %s", buf2)
	}
}

func TestLoadOrCreateMnemonicGiven(t *testing.T) {
	want := vectors[0].mnemonic
	t.Run("OK", func(t *testing.T) {
		dir := t.TempDir()
		m, created, err := LoadOrCreateMnemonic(dir, "  "+strings.ToUpper(want), nil)
		if err != nil || created || m != want {
			t.Fatalf("= %v, %v; want the normalized mnemonic, not created", created, err)
		}
		if _, err := os.Stat(filepath.Join(dir, MnemonicFile)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("a given mnemonic was written to the data directory (stat: %v)", err)
		}
	})
	t.Run("ErrInvalid", func(t *testing.T) {
		bad := strings.Replace(want, "above", "about", 1)
		_, _, err := LoadOrCreateMnemonic(t.TempDir(), bad, nil)
		if cairn.ErrorCode(err) != cairn.EINVALID {
			t.Fatalf("error = %v, want EINVALID", err)
		}
		assertNoMnemonic(t, err.Error(), bad)
	})
	t.Run("DiffersFromStored", func(t *testing.T) {
		dir := t.TempDir()
		stored, _, err := LoadOrCreateMnemonic(dir, "", slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		log, buf := captureLog()
		m, created, err := LoadOrCreateMnemonic(dir, want, log)
		if err != nil || created || m != want {
			t.Fatalf("= %v, %v; want the given mnemonic", created, err)
		}
		out := buf.String()
		if !strings.Contains(out, "level=WARN") || !strings.Contains(out, "differs") {
			t.Errorf("no warning that the given mnemonic differs from the stored one: %s", out)
		}
		assertNoMnemonic(t, out, want)
		assertNoMnemonic(t, out, stored)
	})
}

// TestLoadOrCreateMnemonicConcurrent starts several first starts at once on
// one data directory: they must all end up with the one stored mnemonic.
func TestLoadOrCreateMnemonicConcurrent(t *testing.T) {
	dir := t.TempDir()
	const n = 16
	var (
		wg      sync.WaitGroup
		got     [n]string
		created [n]bool
		errs    [n]error
	)
	for i := range n {
		wg.Go(func() {
			got[i], created[i], errs[i] = LoadOrCreateMnemonic(dir, "", slog.New(slog.DiscardHandler))
		})
	}
	wg.Wait()
	winners := 0
	for i := range n {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if got[i] != got[0] {
			t.Fatalf("call %d got a different mnemonic", i)
		}
		if created[i] {
			winners++
		}
	}
	if winners != 1 {
		t.Errorf("%d calls report creating the file, want 1", winners)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, MnemonicFile)); string(b) != got[0]+"\n" {
		t.Error("the stored file is not the mnemonic every call returned")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("data directory holds %d entries, want 1 (temporary files left behind)", len(entries))
	}
}
