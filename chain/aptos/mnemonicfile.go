package aptos

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
)

// MnemonicFile is the name of the file, in the data directory, that holds a
// generated deposit mnemonic.
const MnemonicFile = "deposit-mnemonic"

// ErrInsecureMnemonicFile is returned, wrapped, when the stored mnemonic file
// is readable or writable by anyone but its owner.
var ErrInsecureMnemonicFile = errors.New("deposit mnemonic file is accessible to others than its owner")

// maxMnemonicFile bounds what is read from the file: 24 words of at most 8
// letters with separators is under 220 bytes.
const maxMnemonicFile = 1024

// LoadOrCreateMnemonic returns the deposit mnemonic, in canonical form.
//
// A non-empty given mnemonic (from --deposit-mnemonic or
// CAIRN_DEPOSIT_MNEMONIC) is checked and used; if a different one is stored
// in dataDir, a warning says so. Otherwise the mnemonic stored in
// dataDir/deposit-mnemonic is used, provided its mode is 0600 or stricter.
// Otherwise a new one is generated, written there with mode 0600 (created is
// true) and a warning asks the operator to back the file up. Two processes
// starting at once on one data directory end up with the same mnemonic. The
// mnemonic itself is never logged nor put in an error.
func LoadOrCreateMnemonic(dataDir, given string, log *slog.Logger) (mnemonic string, created bool, err error) {
	if log == nil {
		log = slog.Default()
	}
	path := filepath.Join(dataDir, MnemonicFile)
	if given != "" {
		m, err := NormalizeMnemonic(given)
		if err != nil {
			return "", false, err
		}
		if stored, err := readMnemonicFile(path); err == nil && stored != m {
			log.Warn("the deposit mnemonic given differs from the one stored in the data directory; "+
				"deposit addresses of agents registered with the stored one stay reachable only through that file",
				"path", path)
		}
		return m, false, nil
	}
	m, err := readMnemonicFile(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return m, false, err
	}
	if m, err = GenerateMnemonic(); err != nil {
		return "", false, err
	}
	won, err := writeNewFile(path, []byte(m+"\n"))
	if err != nil {
		return "", false, fmt.Errorf("store deposit mnemonic: %w", err)
	}
	if !won { // another process created it first: use theirs
		m, err = readMnemonicFile(path)
		return m, false, err
	}
	log.Warn("generated a new deposit mnemonic; back up this file now and keep it secret: "+
		"it is the only key to every agent's deposit address, and losing it loses the funds sent there",
		"path", path)
	return m, true, nil
}

// readMnemonicFile reads and checks the stored mnemonic. A missing file is an
// error matching fs.ErrNotExist.
func readMnemonicFile(path string) (string, error) {
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
		return "", fmt.Errorf("%w: %s has mode %04o, more permissive than 0600; restrict it with: chmod 600 %s",
			ErrInsecureMnemonicFile, path, perm, path)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxMnemonicFile+1))
	defer clear(b)
	if err != nil {
		return "", err
	}
	if len(b) > maxMnemonicFile {
		return "", fmt.Errorf("%s is larger than %d bytes: not a mnemonic", path, maxMnemonicFile)
	}
	m, err := NormalizeMnemonic(string(b))
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// writeNewFile creates path with content and mode 0600, atomically and
// durably: the content is written and synced to a temporary file in the same
// directory, which is then hard-linked to path, so that path never exists
// half-written and an existing path is never replaced (won is false then).
// Where hard links are not supported it falls back to a rename.
func writeNewFile(path string, content []byte) (won bool, err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return false, err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return false, err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after a link, removes only the temporary name
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return false, err
	}
	if _, err := f.Write(content); err != nil {
		f.Close()
		return false, err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return false, err
	}
	if err := f.Close(); err != nil {
		return false, err
	}
	if err := os.Link(tmp, path); errors.Is(err, fs.ErrExist) {
		return false, nil
	} else if err != nil {
		if _, serr := os.Lstat(path); serr == nil {
			return false, nil
		}
		if err := os.Rename(tmp, path); err != nil {
			return false, err
		}
	}
	return true, syncDir(dir)
}

// syncDir makes a new directory entry durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
