package main

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
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
	path := filepath.Join(dataDir, serviceKeyFile)
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

// readServiceKey reads and checks the stored key; a missing file is an
// error matching fs.ErrNotExist.
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
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file", path)
	}
	if perm := fi.Mode().Perm(); perm&^0o600 != 0 {
		return "", fmt.Errorf("%s has mode %04o, more permissive than 0600; restrict it with: chmod 600 %s", path, perm, path)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxSecretFile+1))
	if err != nil {
		return "", err
	}
	if len(b) > maxSecretFile {
		return "", fmt.Errorf("%s is larger than %d bytes: not a secret", path, maxSecretFile)
	}
	return strings.TrimSpace(string(b)), nil
}

// createSecretFile creates path with content and mode 0600, never replacing
// an existing file: the content is written and synced to a temporary file
// created with O_EXCL in the same directory, hard-linked to path (which
// fails when path exists: won is false then), and the directory is synced
// so that the new entry survives a crash.
func createSecretFile(path string, content []byte) (won bool, err error) {
	dir := filepath.Dir(path)
	var tmp string
	var f *os.File
	for {
		var r [8]byte
		_, _ = rand.Read(r[:])
		tmp = filepath.Join(dir, "."+filepath.Base(path)+".tmp-"+hex.EncodeToString(r[:]))
		f, err = os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return false, err
	}
	defer os.Remove(tmp) // after the link, removes only the temporary name
	_, err = f.Write(content)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return false, err
	}
	if err := os.Link(tmp, path); errors.Is(err, fs.ErrExist) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	d, err := os.Open(dir)
	if err != nil {
		return false, err
	}
	defer d.Close()
	return true, d.Sync()
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
