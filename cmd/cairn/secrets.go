package main

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// serviceKeyFile holds 256 random bits from which the server derives the
// keys it needs and nobody configured (cursor signing, and the developer JWT
// secret when --jwt-secret is empty).
const serviceKeyFile = "service.key"

// loadOrCreateServiceKey returns the data dir's service key, creating it
// (mode 0600) on first start.
func loadOrCreateServiceKey(dataDir string) ([]byte, error) {
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, err
	}
	path := filepath.Join(dataDir, serviceKeyFile)
	b, err := os.ReadFile(path)
	if err == nil {
		key, err := hex.DecodeString(strings.TrimSpace(string(b)))
		if err != nil || len(key) != 32 {
			return nil, fmt.Errorf("%s is not a 64-hex-digit key", path)
		}
		return key, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(hex.EncodeToString(key)+"\n"), 0o600); err != nil {
		return nil, err
	}
	if f, err := os.Open(tmp); err == nil {
		_ = f.Sync()
		_ = f.Close()
	}
	if err := os.Rename(tmp, path); err != nil {
		return nil, err
	}
	return key, nil
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
