package s3

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
	"github.com/minio/minio-go/v7/pkg/s3utils"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

// Conditional says how create-only Puts are made (see the package doc).
type Conditional int

const (
	// ConditionalAuto probes the server at New.
	ConditionalAuto Conditional = iota
	// ConditionalOn uses If-None-Match: * without probing.
	ConditionalOn
	// ConditionalOff uses the best-effort check (HEAD, then PUT).
	ConditionalOff
)

// DefaultRegion is the region requests are signed for when Options.Region
// is empty. Most S3-compatible services accept it.
const DefaultRegion = "us-east-1"

// DefaultSweepEvery is how often DeleteExpired makes a full pass when
// Options.SweepEvery is zero.
const DefaultSweepEvery = time.Hour

// maxKeyLen is the longest object key S3 accepts, in bytes.
const maxKeyLen = 1024

// Options configure a Store.
type Options struct {
	// Endpoint is the host[:port] of the S3 API (e.g. s3.amazonaws.com,
	// 127.0.0.1:9000), or its URL as the AWS tools' --endpoint-url takes
	// it (http://127.0.0.1:9000), whose scheme then sets Secure.
	Endpoint string
	// Secure selects https (for an Endpoint without a scheme).
	Secure bool
	// Region requests are signed for (empty: DefaultRegion).
	Region string
	// AccessKey and SecretKey are the credentials (both empty: anonymous).
	AccessKey, SecretKey string
	// Bucket must exist.
	Bucket string
	// Prefix is put before every blob name to make its key (e.g.
	// "cairn/"); empty: none.
	Prefix string
	// Clock decides CreatedAt and when a blob has expired; nil means
	// cairn.SystemClock.
	Clock cairn.Clock
	// BaseURL prefixes the escaped name in URL. Empty means the object's
	// path-style URL under Endpoint.
	BaseURL string
	// Conditional says how create-only Puts are made.
	Conditional Conditional
	// Transport carries the requests (nil: minio-go's default).
	Transport http.RoundTripper
	// TempDir holds the spool files of Puts larger than 1 MiB (empty:
	// os.TempDir()).
	TempDir string
	// MaxSegmentLen, when positive, makes names with a longer segment (in
	// bytes) EINVALID: servers that keep objects as files refuse or fail
	// on segments longer than a file name may be (MinIO: 255 bytes;
	// s3rver: 231, as it adds a suffix of its own).
	MaxSegmentLen int
	// SweepEvery is the least time between two full passes of
	// DeleteExpired (0: DefaultSweepEvery; negative: every call).
	SweepEvery time.Duration
}

// Store is a blob.Store on one bucket of an S3-compatible service.
type Store struct {
	client      *minio.Client
	core        minio.Core
	bucket      string
	prefix      string
	clock       cairn.Clock
	baseURL     string
	conditional bool
	tempDir     string
	maxSegment  int

	names nameLocks // see lockName

	sweepEvery time.Duration
	sweepMu    sync.Mutex
	lastSweep  time.Time
}

var (
	_ blob.Store     = (*Store)(nil)
	_ blob.Presigner = (*Store)(nil)
)

// ParseEndpoint returns the host[:port] and the https choice of an
// endpoint: a host[:port] as it is, with secure; an http:// or https://
// URL by its scheme (nothing after the host but a "/").
func ParseEndpoint(endpoint string, secure bool) (string, bool, error) {
	scheme, rest, ok := strings.Cut(endpoint, "://")
	if !ok {
		return endpoint, secure, nil
	}
	u, err := url.Parse(endpoint)
	switch {
	case err != nil:
		return "", false, fmt.Errorf("s3: endpoint %q: %w", endpoint, err)
	case u.Scheme != "http" && u.Scheme != "https":
		return "", false, fmt.Errorf("s3: endpoint %q: the scheme %q is neither http nor https", endpoint, scheme)
	case u.Host == "" || u.User != nil || u.Path != "" && u.Path != "/" || u.RawQuery != "" || u.Fragment != "":
		return "", false, fmt.Errorf("s3: endpoint %q: want http(s)://host[:port], got more or less (%q)", endpoint, rest)
	}
	return u.Host, u.Scheme == "https", nil
}

// New connects to the service, checks that the bucket exists and, with
// ConditionalAuto, finds out whether the server honours If-None-Match.
func New(ctx context.Context, opts Options) (*Store, error) {
	if opts.Endpoint == "" {
		return nil, errors.New("s3: no endpoint")
	}
	if opts.Bucket == "" {
		return nil, errors.New("s3: no bucket")
	}
	if err := s3utils.CheckValidBucketName(opts.Bucket); err != nil {
		return nil, fmt.Errorf("s3: bucket %q: %w", opts.Bucket, err)
	}
	region := opts.Region
	if region == "" {
		region = DefaultRegion
	}
	host, secure, err := ParseEndpoint(opts.Endpoint, opts.Secure)
	if err != nil {
		return nil, err
	}
	client, err := minio.New(host, &minio.Options{Creds: staticCreds(opts.AccessKey, opts.SecretKey), Secure: secure, Region: region,
		Transport: opts.Transport})
	if err != nil {
		return nil, fmt.Errorf("s3: endpoint %q: %w", opts.Endpoint, err)
	}
	s := &Store{client: client, core: minio.Core{Client: client}, bucket: opts.Bucket, prefix: opts.Prefix,
		clock: opts.Clock, baseURL: opts.BaseURL, tempDir: opts.TempDir, sweepEvery: opts.SweepEvery, maxSegment: opts.MaxSegmentLen}
	if s.clock == nil {
		s.clock = cairn.SystemClock{}
	}
	if s.sweepEvery == 0 {
		s.sweepEvery = DefaultSweepEvery
	}
	if s.baseURL == "" {
		s.baseURL = strings.TrimSuffix(client.EndpointURL().String(), "/") + "/" + opts.Bucket + "/" +
			s3utils.EncodePath(opts.Prefix)
	}
	ok, err := client.BucketExists(ctx, opts.Bucket)
	if err != nil {
		return nil, fmt.Errorf("s3: bucket %q at %s: %w", opts.Bucket, opts.Endpoint, err)
	}
	if !ok {
		return nil, fmt.Errorf("s3: bucket %q does not exist at %s", opts.Bucket, opts.Endpoint)
	}
	switch opts.Conditional {
	case ConditionalOn:
		s.conditional = true
	case ConditionalAuto:
		if s.conditional, err = s.probeConditional(ctx); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Conditional reports whether create-only Puts use If-None-Match (true) or
// the best-effort check (false).
func (s *Store) Conditional() bool { return s.conditional }

// probeConditional writes a probe object twice with If-None-Match: * and
// reports whether the server refused the second write. The probe's key
// holds a backslash, so no blob can ever have it.
func (s *Store) probeConditional(ctx context.Context) (bool, error) {
	key := s.prefix + ".cairn-probe\\" + newGen()
	put := func() error {
		opts := minio.PutObjectOptions{DisableContentSha256: true}
		opts.SetMatchETagExcept("*")
		_, err := s.core.PutObject(ctx, s.bucket, key, bytes.NewReader(nil), 0, "", emptySHA256, opts)
		return err
	}
	if err := put(); err != nil {
		return false, fmt.Errorf("s3: writing a probe object to bucket %q: %w", s.bucket, err)
	}
	defer s.client.RemoveObject(context.WithoutCancel(ctx), s.bucket, key, minio.RemoveObjectOptions{})
	err := put()
	if err == nil {
		return false, nil
	}
	if isPrecondition(err) {
		return true, nil
	}
	return false, fmt.Errorf("s3: writing a probe object to bucket %q: %w", s.bucket, err)
}

// emptySHA256 is the hex SHA-256 of no bytes.
const emptySHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

// key returns the object key of a blob name, EINVALID for an invalid name.
func (s *Store) key(name string) (string, error) {
	if err := blob.ValidateName(name); err != nil {
		return "", err
	}
	if s.maxSegment > 0 {
		for seg := range strings.SplitSeq(name, "/") {
			if len(seg) > s.maxSegment {
				return "", cairn.Errorf(cairn.EINVALID, "blob name has a segment longer than the %d bytes the blob store takes", s.maxSegment)
			}
		}
	}
	key := s.prefix + name
	if len(key) > maxKeyLen {
		return "", cairn.Errorf(cairn.EINVALID, "blob name is longer than %d bytes with the store's prefix", maxKeyLen)
	}
	return key, nil
}

// URL returns BaseURL followed by name, escaped as S3 escapes object keys.
func (s *Store) URL(name string) string { return s.baseURL + s3utils.EncodePath(name) }

// MaxPresignTTL is the longest validity of a presigned URL (SigV4's limit).
const MaxPresignTTL = 7 * 24 * time.Hour

// PresignGet returns a URL, signed with the store's credentials, at which a
// plain GET returns the blob's content for ttl (at most MaxPresignTTL).
func (s *Store) PresignGet(ctx context.Context, name string, ttl time.Duration) (string, error) {
	key, err := s.key(name)
	if err != nil {
		return "", err
	}
	ttl = min(max(ttl, time.Second), MaxPresignTTL)
	u, err := s.client.PresignedGetObject(ctx, s.bucket, key, ttl, nil)
	if err != nil {
		return "", s.fail(ctx, "presigning a URL", err)
	}
	return u.String(), nil
}

// newGen returns a fresh random version tag (16 hex digits).
func newGen() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // never fails
	return hex.EncodeToString(b[:])
}

// errNotFound is the error of an absent or expired blob.
func errNotFound() error { return cairn.Errorf(cairn.ENOTFOUND, "blob not found") }

// errCorrupt is returned when stored bytes no longer match their digest.
func errCorrupt(what string) error {
	return cairn.Errorf(cairn.EUPSTREAM, "stored blob %s does not match its digest", what)
}

// fail translates an error of the S3 client: the context's own error as
// it is, an absent object as ENOTFOUND, anything else as EUPSTREAM with the
// cause in the chain for the logs.
func (s *Store) fail(ctx context.Context, what string, err error) error {
	if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
		err = fmt.Errorf("%w (%w)", cerr, err)
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("s3: %s: %w", what, err)
	}
	if isNotFound(err) {
		return errNotFound()
	}
	if isUnreachable(err) {
		return fmt.Errorf("%w: %w", cairn.Errorf(cairn.EUNAVAILABLE, "The blob store is unreachable for a moment; retry shortly."), err)
	}
	return fmt.Errorf("%w: %w", cairn.Errorf(cairn.EUPSTREAM, "blob store: %s failed", what), err)
}

// isUnreachable tells an S3 server that could not be reached (refused or
// cut connections, after the client's own retries) or says it is busy
// (503 SlowDown, ServiceUnavailable) from one that answered wrongly: the
// same request may succeed in a moment.
func isUnreachable(err error) bool {
	var ne net.Error
	if errors.As(err, &ne) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, io.ErrUnexpectedEOF) {
		return true
	}
	r := minio.ToErrorResponse(err)
	return r.StatusCode == http.StatusServiceUnavailable || r.Code == "SlowDown" || r.Code == "ServiceUnavailable"
}

func isNotFound(err error) bool {
	r := minio.ToErrorResponse(err)
	return r.Code == minio.NoSuchKey || r.StatusCode == http.StatusNotFound && r.Code != minio.NoSuchBucket
}

func isPrecondition(err error) bool {
	r := minio.ToErrorResponse(err)
	return r.StatusCode == http.StatusPreconditionFailed || r.Code == "PreconditionFailed"
}

// nameLocks are per-name read/write locks, used only on servers that do
// not honour conditional writes (see the package doc): a change of a name
// (Put, Delete, ExtendExpiry) holds it exclusively, a read shared, until
// its reader is closed.
type nameLocks struct {
	mu    sync.Mutex
	locks map[string]*nameLock
}

type nameLock struct {
	mu   sync.RWMutex
	refs int
}

// acquire locks key (shared or not) and returns its unlock, which may be
// called more than once.
func (l *nameLocks) acquire(key string, shared bool) func() {
	l.mu.Lock()
	if l.locks == nil {
		l.locks = map[string]*nameLock{}
	}
	nl := l.locks[key]
	if nl == nil {
		nl = &nameLock{}
		l.locks[key] = nl
	}
	nl.refs++
	l.mu.Unlock()
	if shared {
		nl.mu.RLock()
	} else {
		nl.mu.Lock()
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			if shared {
				nl.mu.RUnlock()
			} else {
				nl.mu.Unlock()
			}
			l.mu.Lock()
			if nl.refs--; nl.refs == 0 {
				delete(l.locks, key)
			}
			l.mu.Unlock()
		})
	}
}

// lockName locks key for a change, readName for a read; both do nothing on
// a server that honours conditional writes.
func (s *Store) lockName(key string) func() { return s.acquireName(key, false) }

func (s *Store) readName(key string) func() { return s.acquireName(key, true) }

func (s *Store) acquireName(key string, shared bool) func() {
	if s.conditional {
		return func() {}
	}
	return s.names.acquire(key, shared)
}

// staticCreds returns the credentials of a key pair (both empty:
// anonymous requests).
func staticCreds(accessKey, secretKey string) *credentials.Credentials {
	if accessKey == "" && secretKey == "" {
		return credentials.NewStatic("", "", "", credentials.SignatureAnonymous)
	}
	return credentials.NewStaticV4(accessKey, secretKey, "")
}
