package fs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

// DeleteExpired removes every blob that has expired at now and returns how
// many it removed. On the way it removes the leftovers of interrupted writes
// (temp files no write is using, content files no sidecar refers to). Blobs
// whose sidecar is damaged are left alone for an operator to inspect.
func (s *Store) DeleteExpired(ctx context.Context, now time.Time) (int, error) {
	return s.sweep(ctx, now, true)
}

// file kinds in a fan-out directory, by name.
const (
	kindMeta = iota + 1
	kindBlob
	kindTemp
)

// parseFile splits a directory entry into its key, generation and kind;
// kind 0 for a name the store does not write.
func parseFile(name string) (key, gen string, kind int) {
	key, rest, ok := strings.Cut(name, ".")
	if !ok || !blob.IsHex(key, 64) {
		return "", "", 0
	}
	if rest == "meta" {
		return key, "", kindMeta
	}
	gen, ext, _ := strings.Cut(rest, ".")
	if !blob.IsHex(gen, 16) {
		return "", "", 0
	}
	switch ext {
	case "blob":
		return key, gen, kindBlob
	case "blob.tmp", "meta.tmp":
		return key, gen, kindTemp
	}
	return "", "", 0
}

func (s *Store) sweep(ctx context.Context, now time.Time, expire bool) (int, error) {
	removed := 0
	for i := range 256 {
		if err := ctx.Err(); err != nil {
			return removed, err
		}
		dir := filepath.Join(s.root, fanout(i))
		entries, err := os.ReadDir(dir)
		if err != nil {
			return removed, fmt.Errorf("fs: sweep %s: %w", dir, err)
		}
		files := map[string][]string{} // key -> its files other than the sidecar
		var keys []string
		for _, e := range entries {
			key, _, kind := parseFile(e.Name())
			if kind == 0 || key[:2] != fanout(i) {
				continue
			}
			if _, seen := files[key]; !seen {
				keys = append(keys, key)
				files[key] = nil
			}
			if kind != kindMeta {
				files[key] = append(files[key], e.Name())
			}
		}
		slices.Sort(keys)
		for _, key := range keys {
			l := loc{dir: dir, key: key, stripe: i}
			n, err := s.sweepKey(l, files[key], now, expire)
			removed += n
			if err != nil {
				return removed, err
			}
		}
	}
	return removed, nil
}

// sweepKey deals with one key under its lock: removes the blob when it has
// expired, then the temp and content files nothing refers to.
func (s *Store) sweepKey(l loc, names []string, now time.Time, expire bool) (int, error) {
	lk := &s.locks[l.stripe]
	lk.Lock()
	defer lk.Unlock()
	removed := 0
	current := "" // generation the sidecar refers to
	rec, err := readRecord(l)
	switch {
	case err == nil && expire && blob.Expired(rec.ExpiresAt, now):
		s.forget(l.key)
		if err := os.Remove(l.metaPath()); err != nil && !os.IsNotExist(err) {
			return 0, cairn.Upstream(err, "deleting expired blob failed")
		}
		removed = 1
		names = append(names, l.key+"."+rec.Gen+".blob")
	case err == nil:
		current = rec.Gen
	case !cairn.IsCode(err, cairn.ENOTFOUND):
		return 0, nil // damaged or unreadable: keep everything
	}
	for _, name := range names {
		_, gen, kind := parseFile(name)
		path := filepath.Join(l.dir, name)
		if (kind == kindBlob && gen != current || kind == kindTemp) && !s.writing(path) {
			if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
				return removed, cairn.Upstream(err, "removing stale blob file failed")
			}
		}
	}
	return removed, nil
}
