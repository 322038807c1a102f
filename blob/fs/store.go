package fs

import (
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

// Options configure a Store. The zero value is usable.
type Options struct {
	// Clock decides when a blob has expired; nil means cairn.SystemClock.
	Clock cairn.Clock
	// BaseURL prefixes the escaped name in URL. Empty means the file: URL
	// of the root directory ("file:///<abs-root>/").
	BaseURL string
	// CacheBytes bounds the read cache of sidecars and verified chunks
	// (cache.go): 0 means DefaultCacheBytes, a negative value no cache.
	CacheBytes int64
	// ScrubBytes is how many bytes of content one Scrub call verifies
	// (verify.go): 0 means DefaultScrubBytes.
	ScrubBytes int64
}

// Store is a blob.Store over files under one root directory.
type Store struct {
	root    string
	clock   cairn.Clock
	baseURL string

	// locks serialise the changes to the blobs of one fan-out directory
	// (indexed by the first byte of the key); readers hold them shared
	// while they read a sidecar and open its content file.
	locks [256]sync.RWMutex

	mu       sync.Mutex
	inflight map[string]struct{} // files of Puts not yet committed

	gc committer // group commit of Puts (commit.go)

	cache   *cache   // nil: no read cache
	handles *handles // open content files (handles.go)

	settle time.Duration // verify.go
	scrub  scrubState

	// crash, when set (by tests), is asked at every point where a crash
	// could interrupt a commit; true stops the commit there and leaves the
	// files as they are, as a crash would.
	crash func() bool
}

var _ blob.Store = (*Store)(nil)

// New opens the store rooted at root, creating the directory tree when
// needed and removing the leftovers of an interrupted write.
func New(root string, opts Options) (*Store, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("fs: root %q: %w", root, err)
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return nil, fmt.Errorf("fs: create root: %w", err)
	}
	for i := range 256 {
		err := os.Mkdir(filepath.Join(abs, fanout(i)), 0o700)
		if err != nil && !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("fs: create root: %w", err)
		}
	}
	if err := syncDir(abs); err != nil {
		return nil, fmt.Errorf("fs: sync root: %w", err)
	}
	s := &Store{root: abs, clock: opts.Clock, baseURL: opts.BaseURL, inflight: map[string]struct{}{}, handles: newHandles()}
	s.gc.slots = make(chan struct{}, maxInflight)
	s.settle, s.scrub.bytes = defaultSettle, cmp.Or(opts.ScrubBytes, DefaultScrubBytes)
	switch {
	case opts.CacheBytes == 0:
		s.cache = newCache(DefaultCacheBytes)
	case opts.CacheBytes > 0:
		s.cache = newCache(opts.CacheBytes)
	}
	if s.clock == nil {
		s.clock = cairn.SystemClock{}
	}
	if s.baseURL == "" {
		p := filepath.ToSlash(abs)
		if !strings.HasPrefix(p, "/") {
			p = "/" + p
		}
		s.baseURL = "file://" + escapePath(strings.TrimSuffix(p, "/")) + "/"
	}
	if _, err := s.sweep(context.Background(), time.Time{}, false); err != nil {
		return nil, err
	}
	return s, nil
}

// Root returns the absolute path of the root directory.
func (s *Store) Root() string { return s.root }

// URL returns BaseURL followed by name, each segment path-escaped.
func (s *Store) URL(name string) string { return s.baseURL + escapePath(name) }

func escapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, seg := range segs {
		segs[i] = url.PathEscape(seg)
	}
	return strings.Join(segs, "/")
}

// forget drops what the store keeps in memory of the blob stored under key:
// its cached sidecar and its open content file. The caller holds the
// name's stripe lock exclusively and changes or removes its files.
func (s *Store) forget(key string) {
	s.cache.dropRecord(key)
	s.handles.forget(key)
}

// loc is where a blob's files live.
type loc struct {
	dir    string // fan-out directory
	key    string // hex SHA-256 of the name
	stripe int    // index into Store.locks
}

// lookup validates name and returns where its blob lives and the lock of
// its stripe; the error of an invalid name or of a done ctx.
func (s *Store) lookup(ctx context.Context, name string) (loc, *sync.RWMutex, error) {
	if err := blob.ValidateName(name); err != nil {
		return loc{}, nil, err
	}
	if err := ctx.Err(); err != nil {
		return loc{}, nil, err
	}
	l := s.locate(name)
	return l, &s.locks[l.stripe], nil
}

func (s *Store) locate(name string) loc {
	sum := sha256.Sum256([]byte(name))
	key := hex.EncodeToString(sum[:])
	return loc{dir: filepath.Join(s.root, key[:2]), key: key, stripe: int(sum[0])}
}

func (l loc) metaPath() string { return filepath.Join(l.dir, l.key+".meta") }

func (l loc) blobPath(gen string) string { return filepath.Join(l.dir, l.key+"."+gen+".blob") }

func fanout(i int) string { return fmt.Sprintf("%02x", i) }

// newGen returns a fresh random generation tag (16 hex digits).
func newGen() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // never fails
	return hex.EncodeToString(b[:])
}

// track marks a temp file as being written (on) or done (off), so that a
// concurrent sweep leaves it alone.
func (s *Store) track(path string, on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if on {
		s.inflight[path] = struct{}{}
	} else {
		delete(s.inflight, path)
	}
}

func (s *Store) writing(path string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.inflight[path]
	return ok
}

// syncDir makes the entries of dir (creations, renames, removals) durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// errCorrupt is returned when stored bytes no longer match their digest.
func errCorrupt(what string) error {
	return cairn.Errorf(cairn.EUPSTREAM, "stored blob %s does not match its digest", what)
}
