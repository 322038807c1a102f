// Package secretfile reads and creates the small secret files of a data
// directory (the deposit mnemonic, service.key, token files) with the care
// they need: a file is read only when it is a regular file of mode 0600 or
// stricter and small, and it is created with mode 0600, durably, without
// ever replacing an existing file or leaving one half-written. Error texts
// name the file, never its content.
//
// It imports only the standard library.
package secretfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrInsecure marks a secret file that others may read or write.
var ErrInsecure = errors.New("secret file is more permissive than 0600")

// Read returns the content of path, a regular file of mode 0600 or
// stricter of at most max bytes. A missing file is an error matching
// fs.ErrNotExist; a too permissive one matches ErrInsecure.
func Read(path string, max int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	if perm := fi.Mode().Perm(); perm&^0o600 != 0 {
		return nil, fmt.Errorf("%w: %s has mode %04o, more permissive than 0600; restrict it with: chmod 600 %s",
			ErrInsecure, path, perm, path)
	}
	b, err := io.ReadAll(io.LimitReader(f, int64(max)+1))
	if err != nil {
		clear(b)
		return nil, err
	}
	if len(b) > max {
		clear(b)
		return nil, fmt.Errorf("%s is larger than %d bytes: not a secret", path, max)
	}
	return b, nil
}

// Create creates path with content and mode 0600, atomically and durably:
// the content is written and synced to a temporary file created with
// O_EXCL in the same directory (made 0700 if missing), which is then
// hard-linked to path, so that path never exists half-written and an
// existing path is never replaced (won is false then); the directory is
// synced so that the new entry survives a crash. Where hard links are not
// supported it falls back to a rename.
func Create(path string, content []byte) (won bool, err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return false, err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*") // O_EXCL, mode 0600
	if err != nil {
		return false, err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after a link, removes only the temporary name
	_, err = f.Write(content)
	if err == nil {
		err = f.Chmod(0o600)
	}
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
		if _, serr := os.Lstat(path); serr == nil {
			return false, nil
		}
		if err := os.Rename(tmp, path); err != nil {
			return false, err
		}
	}
	d, err := os.Open(dir)
	if err != nil {
		return false, err
	}
	defer d.Close()
	return true, d.Sync()
}
