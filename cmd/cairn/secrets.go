package main

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/cairn-dev/cairn/internal/secretfile"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// serviceKeyFile holds 256 random bits from which the server derives the
// keys it needs and nobody configured (cursor signing, and the developer JWT
// secret when --jwt-secret is empty).
const serviceKeyFile = "service.key"

// minSecretBytes is the shortest admin token or JWT secret accepted: 256
// bits, what an HS256 key needs and what nobody guesses online.
const minSecretBytes = 32

// maxSecretFile bounds what is read from a secret file.
const maxSecretFile = 4096

// loadOrCreateServiceKey returns the data dir's service key, creating it
// (mode 0600) on first start. A stored key readable or writable by others
// than its owner is refused, like the deposit mnemonic.
func loadOrCreateServiceKey(dataDir string) ([]byte, error) {
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, err
	}
	return loadOrCreateKey(filepath.Join(dataDir, serviceKeyFile))
}

// loadOrCreateKey returns the 32-byte key kept in hex at path, creating
// it (random, mode 0600) when the file does not exist.
func loadOrCreateKey(path string) ([]byte, error) {
	key, err := readServiceKey(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return key, err
	}
	key = make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	won, err := createSecretFile(path, []byte(hex.EncodeToString(key)+"\n"))
	if err != nil {
		return nil, err
	}
	if !won { // another process created it first: use theirs
		return readServiceKey(path)
	}
	return key, nil
}

// readServiceKey reads and checks a stored 32-byte hex key; a missing
// file is an error matching fs.ErrNotExist.
func readServiceKey(path string) ([]byte, error) {
	s, err := readSecretFile(path)
	if err != nil {
		return nil, err
	}
	key, err := hex.DecodeString(s)
	if err != nil || len(key) != 32 {
		return nil, fmt.Errorf("%s is not a 64-hex-digit key", path)
	}
	return key, nil
}

// readSecretFile returns the trimmed content of a secret file, which must
// be a regular file of mode 0600 or stricter. A missing file is an error
// matching fs.ErrNotExist. The content is never put in an error.
func readSecretFile(path string) (string, error) {
	b, err := secretfile.Read(path, maxSecretFile)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(b)), nil
}

// createSecretFile creates path with content and mode 0600, never replacing
// an existing file (won is false then), durably (secretfile.Create).
func createSecretFile(path string, content []byte) (won bool, err error) {
	return secretfile.Create(path, content)
}

// resolveSecrets reads --admin-token-file and --jwt-secret-file into the
// config and refuses a secret given twice or shorter than minSecretBytes.
func resolveSecrets(cfg *Config) error {
	for _, s := range []struct {
		flag, fileFlag string
		value          *string
		file           string
	}{
		{"--admin-token", "--admin-token-file", &cfg.AdminToken, cfg.AdminTokenFile},
		{"--jwt-secret", "--jwt-secret-file", &cfg.JWTSecret, cfg.JWTSecretFile},
		{"--deposit-mnemonic", "--deposit-mnemonic-file", &cfg.DepositMnemonic, cfg.DepositMnemonicFile},
	} {
		if s.file != "" {
			if *s.value != "" {
				return fmt.Errorf("%s and %s are both set: give one", s.flag, s.fileFlag)
			}
			v, err := readSecretFile(s.file)
			if err != nil {
				return fmt.Errorf("%s: %w", s.fileFlag, err)
			}
			if v == "" {
				return fmt.Errorf("%s: %s is empty", s.fileFlag, s.file)
			}
			*s.value = v
		}
		if n := len(*s.value); n > 0 && n < minSecretBytes {
			return fmt.Errorf("%s is %d bytes long; it must be at least %d (for example: openssl rand -hex 32)", s.flag, n, minSecretBytes)
		}
	}
	return nil
}

// deriveKey returns HMAC-SHA256(master, purpose): independent keys for
// independent uses.
func deriveKey(master []byte, purpose string) []byte {
	m := hmac.New(sha256.New, master)
	m.Write([]byte("cairn/" + purpose))
	return m.Sum(nil)
}

// jwtSecret returns the configured secret, or one derived from the service
// key.
func jwtSecret(configured string, serviceKey []byte) []byte {
	if configured != "" {
		return []byte(configured)
	}
	return deriveKey(serviceKey, "jwt")
}
