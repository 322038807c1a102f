package aptos

import (
	"errors"
	"fmt"
	"github.com/cairn-dev/cairn/internal/secretfile"
	"io/fs"
	"log/slog"
	"path/filepath"
)

// MnemonicFile is the name of the file, in the data directory, that holds a
// generated deposit mnemonic.
const MnemonicFile = "deposit-mnemonic"

// ErrInsecureMnemonicFile is returned, wrapped, when the stored mnemonic file
// is readable or writable by anyone but its owner.
var ErrInsecureMnemonicFile = secretfile.ErrInsecure

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
	m, generated, err := ReadOrGenerateMnemonic(dataDir, given, log)
	if err != nil || !generated {
		return m, false, err
	}
	m, created, err = KeepMnemonic(dataDir, m, log)
	return m, created, err
}

// ReadOrGenerateMnemonic is LoadOrCreateMnemonic without the write: a new
// mnemonic is generated (generated is true) but not stored, so that a
// start that then fails (its seed refused by the shared store, say)
// leaves no file behind; KeepMnemonic stores it once the start goes on.
func ReadOrGenerateMnemonic(dataDir, given string, log *slog.Logger) (mnemonic string, generated bool, err error) {
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
	return m, true, nil
}

// KeepMnemonic writes a generated mnemonic to dataDir/deposit-mnemonic
// with mode 0600 (created is true) and asks the operator to back it up;
// when another process created the file first, its mnemonic is returned
// instead.
func KeepMnemonic(dataDir, m string, log *slog.Logger) (mnemonic string, created bool, err error) {
	if log == nil {
		log = slog.Default()
	}
	path := filepath.Join(dataDir, MnemonicFile)
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
	b, err := secretfile.Read(path, maxMnemonicFile)
	defer clear(b)
	if err != nil {
		return "", err
	}
	m, err := NormalizeMnemonic(string(b))
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// writeNewFile creates path with content, mode 0600, never replacing it
// (secretfile.Create).
func writeNewFile(path string, content []byte) (won bool, err error) {
	return secretfile.Create(path, content)
}
