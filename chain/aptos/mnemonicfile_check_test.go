package aptos

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
)

func TestLoadOrCreateMnemonicFileMode(t *testing.T) {
	m := vectors[1].mnemonic
	for _, tc := range []struct {
		mode fs.FileMode
		ok   bool
	}{{0o600, true}, {0o400, true}, {0o644, false}, {0o640, false}, {0o604, false}, {0o660, false}, {0o700, false}} {
		t.Run(tc.mode.String(), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, MnemonicFile)
			if err := os.WriteFile(path, []byte(m+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, tc.mode); err != nil {
				t.Fatal(err)
			}
			got, created, err := LoadOrCreateMnemonic(dir, "", nil)
			if tc.ok {
				if err != nil || created || got != m {
					t.Fatalf("= created %v, %v; want the stored mnemonic", created, err)
				}
				return
			}
			if !errors.Is(err, ErrInsecureMnemonicFile) {
				t.Fatalf("error = %v, want ErrInsecureMnemonicFile", err)
			}
			if s := err.Error(); !strings.Contains(s, "chmod 600") || !strings.Contains(s, path) {
				t.Errorf("error %q does not tell how to fix %s", s, path)
			}
			assertNoMnemonic(t, err.Error(), m)
			if b, _ := os.ReadFile(path); string(b) != m+"\n" {
				t.Error("the refused file was changed")
			}
		})
	}
}

func TestLoadOrCreateMnemonicBadFile(t *testing.T) {
	for _, tc := range []struct {
		name    string
		content string
		code    string
	}{
		{"ErrBadChecksum", strings.Repeat("abandon ", 12), cairn.EINVALID},
		{"ErrEmpty", "\n", cairn.EINVALID},
		{"ErrTooLarge", strings.Repeat("abandon ", 200), cairn.EINTERNAL},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, MnemonicFile)
			if err := os.WriteFile(path, []byte(tc.content), 0o600); err != nil {
				t.Fatal(err)
			}
			_, _, err := LoadOrCreateMnemonic(dir, "", nil)
			if err == nil || cairn.ErrorCode(err) != tc.code || !strings.Contains(err.Error(), path) {
				t.Fatalf("error = %v, want code %s naming %s", err, tc.code, path)
			}
			if b, _ := os.ReadFile(path); string(b) != tc.content {
				t.Error("a bad stored file was replaced: its deposit addresses would be lost")
			}
		})
	}
	t.Run("ErrDirectory", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, MnemonicFile), 0o700); err != nil {
			t.Fatal(err)
		}
		if _, _, err := LoadOrCreateMnemonic(dir, "", nil); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Fatalf("error = %v, want not a regular file", err)
		}
	})
}
