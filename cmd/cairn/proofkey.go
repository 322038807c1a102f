package main

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairn-dev/cairn/compliance"
	"github.com/cairn-dev/cairn/internal/secretfile"
)

// proofKeyFile is the default file of the proof signing key in the data
// dir.
const proofKeyFile = "proof-signing.key"

// proofKeyPath is the proof signing key's file: --proof-key-file, or
// proof-signing.key in the data dir.
func proofKeyPath(dataDir, flagged string) string {
	if flagged != "" {
		return flagged
	}
	return filepath.Join(dataDir, proofKeyFile)
}

// retiredPath lists the public keys a rotation retired, one hex key a
// line: they stay published so that the documents they signed verify.
func retiredPath(keyPath string) string { return keyPath + ".retired" }

// openProofSigner reads (or creates, on first start) the signing key at
// path and the retired keys beside it.
func openProofSigner(path string) (*compliance.Signer, error) {
	seed, err := loadOrCreateKey(path)
	if err != nil {
		return nil, err
	}
	retired, err := readRetiredKeys(retiredPath(path))
	if err != nil {
		return nil, err
	}
	return compliance.NewSigner(seed, retired)
}

// readRetiredKeys reads a list of retired public keys: one 64-hex-digit
// key a line, blank lines and lines starting with # skipped. A missing
// file is an empty list.
func readRetiredKeys(path string) ([]ed25519.PublicKey, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	var keys []ed25519.PublicKey
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, err := hex.DecodeString(strings.Fields(line)[0])
		if err != nil || len(k) != ed25519.PublicKeySize {
			return nil, fmt.Errorf("%s line %d: not a 64-hex-digit Ed25519 public key", path, n)
		}
		keys = append(keys, k)
	}
	return keys, sc.Err()
}

// runProofKey is `cairn proof-key rotate|show`: rotate retires the current
// proof signing key (its public key appended to the .retired list, which
// the server keeps publishing) and writes a new one; show prints the
// published keys. Servers sign with the new key once restarted.
func runProofKey(args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	const use = "usage: cairn proof-key rotate|show [--data-dir D] [--proof-key-file F]"
	if len(args) == 0 || (args[0] != "rotate" && args[0] != "show") {
		fmt.Fprintln(stderr, use)
		return errUsage
	}
	fs := flag.NewFlagSet("cairn proof-key "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data-dir", DefaultConfig().DataDir, "the server's data directory")
	keyFile := fs.String("proof-key-file", "", "the signing key's file (default: proof-signing.key in --data-dir)")
	if err := parseWithEnv(fs, args[1:], getenv); err != nil || fs.NArg() != 0 {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		fmt.Fprintln(stderr, use)
		return errUsage
	}
	path := proofKeyPath(*dataDir, *keyFile)
	if args[0] == "rotate" {
		if err := rotateProofKey(path); err != nil {
			return err
		}
	}
	// Read, never created: a key made here would sign nothing.
	seed, err := readServiceKey(path)
	if err != nil {
		return fmt.Errorf("the signing key: %w", err)
	}
	retired, err := readRetiredKeys(retiredPath(path))
	if err != nil {
		return err
	}
	s, err := compliance.NewSigner(seed, retired)
	if err != nil {
		return err
	}
	for _, k := range s.Keys() {
		state := "retired"
		if k.Current {
			state = "current"
		}
		fmt.Fprintf(stdout, "%s %s %s\n", k.KeyID, state, k.PublicKey)
	}
	return nil
}

// rotateProofKey appends the current key's public key to the retired
// list, durably, then replaces the key file with a new random key. A crash
// between the two leaves the current key both current and retired, which
// the signer lists once.
func rotateProofKey(path string) error {
	seed, err := readServiceKey(path)
	if err != nil {
		return fmt.Errorf("the current key: %w", err)
	}
	pub := ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey)
	f, err := os.OpenFile(retiredPath(path), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(f, "%s %s\n", hex.EncodeToString(pub), compliance.KeyID(pub))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	next := make([]byte, ed25519.SeedSize)
	if _, err := rand.Read(next); err != nil {
		return err
	}
	tmp := path + ".new"
	os.Remove(tmp) // left by a rotation that failed before its rename
	if _, err := secretfile.Create(tmp, []byte(hex.EncodeToString(next)+"\n")); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
