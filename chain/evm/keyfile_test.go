package evm_test

import (
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/chain/evm"
	"github.com/ethereum/go-ethereum/crypto"
)

func writeKey(t *testing.T, content string, mode fs.FileMode) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "evm-key")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadKeyFile(t *testing.T) {
	key := newKey(t)
	hexKey := hex.EncodeToString(crypto.FromECDSA(key))
	for _, content := range []string{hexKey, "0x" + hexKey + "\n", "  " + strings.ToUpper(hexKey) + "\r\n"} {
		got, err := evm.LoadKeyFile(writeKey(t, content, 0o600))
		if err != nil || evm.Address(got) != evm.Address(key) {
			t.Fatalf("LoadKeyFile(%q...) = %v", content[:6], err)
		}
	}
	if _, err := evm.LoadKeyFile(writeKey(t, hexKey, 0o400)); err != nil {
		t.Fatalf("mode 0400: %v", err)
	}
	t.Run("ErrMode", func(t *testing.T) {
		for _, mode := range []fs.FileMode{0o644, 0o640, 0o604, 0o660, 0o700} {
			path := writeKey(t, hexKey, mode)
			_, err := evm.LoadKeyFile(path)
			if !errors.Is(err, evm.ErrInsecureKeyFile) || !strings.Contains(err.Error(), "chmod 600 "+path) {
				t.Fatalf("mode %04o: %v, want ErrInsecureKeyFile telling how to fix it", mode, err)
			}
			if strings.Contains(err.Error(), hexKey[:16]) {
				t.Fatal("the error shows the key")
			}
		}
	})
	t.Run("ErrContent", func(t *testing.T) {
		for _, content := range []string{"", hexKey[:62], hexKey + "00", "zz" + hexKey[2:], hexKey + "\n" + hexKey,
			strings.Repeat("0", 64), "0x" + strings.Repeat("f", 64), strings.Repeat("a", 300)} {
			_, err := evm.LoadKeyFile(writeKey(t, content, 0o600))
			if err == nil {
				t.Fatalf("content %q... loaded", content[:min(len(content), 8)])
			}
			if len(content) >= 16 && strings.Contains(err.Error(), content[2:16]) {
				t.Fatalf("the error %q shows the file's content", err)
			}
		}
		if _, err := evm.LoadKeyFile(filepath.Join(t.TempDir(), "missing")); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("missing file: %v", err)
		}
		if _, err := evm.LoadKeyFile(t.TempDir()); err == nil {
			t.Fatal("a directory loaded")
		}
	})
}
