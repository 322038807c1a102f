package s3

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"github.com/minio/minio-go/v7"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
	"github.com/cairn-dev/cairn/blob/blobtest"
	"github.com/cairn-dev/cairn/internal/testenv"
)

var epoch = time.Date(2025, 3, 4, 5, 6, 7, 8, time.UTC)

// server is an S3 service the tests make buckets on.
type server struct {
	endpoint             string
	accessKey, secretKey string
	buckets              atomic.Int64
}

// fakeServer starts an in-process gofakes3 server for the test.
func fakeServer(t *testing.T) *server {
	t.Helper()
	return handlerServer(t, gofakes3.New(s3mem.New()).Server())
}

// handlerServer serves h, an S3 service, for the test.
func handlerServer(t *testing.T, h http.Handler) *server {
	t.Helper()
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	u, err := url.Parse(ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	return &server{endpoint: u.Host, accessKey: "test-access", secretKey: "test-secret"}
}

// s3rverServer is the s3rver process .ci/run starts, named by
// CAIRN_TEST_S3_ENDPOINT; the test is skipped without it unless
// CAIRN_REQUIRE_S3=1.
func s3rverServer(t *testing.T) *server {
	t.Helper()
	ep := testenv.Env(t, "CAIRN_TEST_S3_ENDPOINT", "CAIRN_REQUIRE_S3", "host:port of an s3rver, as .ci/run starts one")
	return &server{endpoint: ep, accessKey: envOr("CAIRN_TEST_S3_ACCESS_KEY", "S3RVER"),
		secretKey: envOr("CAIRN_TEST_S3_SECRET_KEY", "S3RVER")}
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

// client is a plain minio-go client of the server, for what the tests do
// behind the store's back.
func (sv *server) client(t testing.TB) *minio.Client {
	t.Helper()
	c, err := minio.New(sv.endpoint, &minio.Options{Creds: staticCreds(sv.accessKey, sv.secretKey), Region: DefaultRegion})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// bucket makes a new empty bucket, removed with its objects at the end of
// the test.
func (sv *server) bucket(t testing.TB) string {
	t.Helper()
	name := fmt.Sprintf("cairn-test-%d-%d", time.Now().UnixNano()%1e9, sv.buckets.Add(1))
	c := sv.client(t)
	if err := c.MakeBucket(context.Background(), name, minio.MakeBucketOptions{}); err != nil {
		t.Fatalf("make bucket: %v", err)
	}
	t.Cleanup(func() {
		ctx := context.Background()
		for oi := range c.ListObjects(ctx, name, minio.ListObjectsOptions{Recursive: true}) {
			if oi.Err == nil {
				_ = c.RemoveObject(ctx, name, oi.Key, minio.RemoveObjectOptions{})
			}
		}
		_ = c.RemoveBucket(ctx, name)
	})
	return name
}

// store opens a store on a new bucket of the server.
func (sv *server) store(t testing.TB, opts Options) *Store {
	t.Helper()
	opts.Endpoint, opts.AccessKey, opts.SecretKey = sv.endpoint, sv.accessKey, sv.secretKey
	if opts.Bucket == "" {
		opts.Bucket = sv.bucket(t)
	}
	if opts.TempDir == "" {
		opts.TempDir = t.TempDir()
	}
	s, err := New(context.Background(), opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return s
}

// conformance runs blob/blobtest against stores on sv.
func conformance(t *testing.T, sv *server, prefix string, maxSegment int, wantConditional bool) {
	var clocks blobtest.Clocks
	blobtest.RunTests(t, func(t *testing.T) blob.Store {
		clk := cairn.NewManualClock(epoch)
		s := sv.store(t, Options{Clock: clk, Prefix: prefix, MaxSegmentLen: maxSegment})
		if s.Conditional() != wantConditional {
			t.Fatalf("Conditional() = %v, want %v", s.Conditional(), wantConditional)
		}
		clocks.Keep(s, clk)
		return s
	}, blobtest.Control{
		Now:     clocks.Now,
		Advance: clocks.Advance,
		Corrupt: func(t *testing.T, s blob.Store, name string, off int64) {
			corrupt(t, sv, s.(*Store), name, off)
		},
		MaxSegmentLen: maxSegment,
	})
}

// TestConformanceGofakes3 runs the suite against an in-process gofakes3
// server, which honours If-None-Match, with and without a key prefix.
func TestConformanceGofakes3(t *testing.T) {
	sv := fakeServer(t)
	t.Run("NoPrefix", func(t *testing.T) { conformance(t, sv, "", 0, true) })
	t.Run("Prefix", func(t *testing.T) { conformance(t, sv, "cairn/blobs/", 0, true) })
}

// TestConformanceS3rver runs the suite against the s3rver process of
// .ci/run, which ignores conditional headers (create-only is the
// best-effort check there) and keeps objects as files, with a suffix of its
// own after the last segment: names with longer segments are refused.
func TestConformanceS3rver(t *testing.T) {
	conformance(t, s3rverServer(t), "", s3rverMaxSegment, false)
}

// s3rverMaxSegment is the longest segment s3rver stores: 255 bytes of a
// file name, less its longest suffix ("._S3rver_metadata.json").
const s3rverMaxSegment = 255 - len("._S3rver_metadata.json")

// corrupt flips the bits of the content byte at off behind the store's
// back, leaving the metadata (and so the recorded digests) as it was.
func corrupt(t *testing.T, sv *server, s *Store, name string, off int64) {
	t.Helper()
	ctx := context.Background()
	c := sv.client(t)
	key := s.prefix + name
	obj, err := c.GetObject(ctx, s.bucket, key, minio.GetObjectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(obj)
	obj.Close()
	if err != nil {
		t.Fatal(err)
	}
	oi, err := c.StatObject(ctx, s.bucket, key, minio.StatObjectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	data[off] ^= 0xff
	if _, err := c.PutObject(ctx, s.bucket, key, bytes.NewReader(data), int64(len(data)),
		minio.PutObjectOptions{UserMetadata: oi.UserMetadata, ContentType: oi.ContentType, DisableContentSha256: true}); err != nil {
		t.Fatal(err)
	}
}

// TestMetadataFits: the metadata of the largest blob with the longest
// content type stays inside the 2 KB S3 allows, as gofakes3 counts it.
func TestMetadataFits(t *testing.T) {
	rec := &record{Gen: newGen(), Size: MaxBlobSize, SHA256: strings.Repeat("a", 64), ChunkSize: maxChunkSize,
		Sums: make([]byte, maxChunks*32), ContentType: strings.Repeat("x", maxTypeLen-1),
		CreatedAt: epoch, ExpiresAt: epoch.Add(time.Hour)}
	n := 0
	for k, v := range rec.metadata() {
		n += len("X-Amz-Meta-") + len(k) + len(v)
	}
	// The other headers gofakes3 counts: Content-Type, X-Amz-Content-Sha256,
	// X-Amz-Date, Last-Modified.
	n += len("Content-Type") + 24 + len("X-Amz-Content-Sha256") + 64 + len("X-Amz-Date") + 16 + len("Last-Modified") + 29
	if n > gofakes3.DefaultMetadataSizeLimit {
		t.Fatalf("metadata of %d bytes, over %d", n, gofakes3.DefaultMetadataSizeLimit)
	}
	if chunkSizeFor(MaxBlobSize) != maxChunkSize || chunkSizeFor(0) != minChunkSize ||
		chunkSizeFor(maxChunks*minChunkSize) != minChunkSize || chunkSizeFor(maxChunks*minChunkSize+1) != 2*minChunkSize {
		t.Fatal("chunkSizeFor")
	}
}

// TestParseEndpoint: a host[:port] keeps the secure choice it comes with;
// an http:// or https:// URL (the AWS tools' --endpoint-url) sets it by
// its scheme; anything else in a URL is refused.
func TestParseEndpoint(t *testing.T) {
	type endpoint struct {
		host, err string
		secure    bool
	}
	cases := map[string]map[bool]endpoint{ // endpoint -> --s3-secure -> want
		"127.0.0.1:9000":                {true: {"127.0.0.1:9000", "", true}},
		"s3.amazonaws.com":              {false: {"s3.amazonaws.com", "", false}},
		"http://127.0.0.1:9000":         {true: {"127.0.0.1:9000", "", false}},
		"https://minio.example:9443/":   {false: {"minio.example:9443", "", true}},
		"ftp://127.0.0.1:9000":          {true: {err: "neither http nor https"}},
		"http://":                       {true: {err: "want http(s)://host[:port]"}},
		"http://127.0.0.1:9000/bucket":  {true: {err: "want http(s)://host[:port]"}},
		"http://user:pw@127.0.0.1:9000": {true: {err: "want http(s)://host[:port]"}},
		"http://127.0.0.1:9000?x=1":     {true: {err: "want http(s)://host[:port]"}},
	}
	for in, bySecure := range cases {
		for secure, want := range bySecure {
			host, gotSecure, err := ParseEndpoint(in, secure)
			if want.err != "" && (err == nil || !strings.Contains(err.Error(), want.err)) {
				t.Errorf("ParseEndpoint(%q) = %q, %v, %v; want an error saying %q", in, host, gotSecure, err, want.err)
			} else if want.err == "" && (err != nil || host != want.host || gotSecure != want.secure) {
				t.Errorf("ParseEndpoint(%q, %v) = %q, %v, %v; want %q, %v", in, secure, host, gotSecure, err, want.host, want.secure)
			}
		}
	}
}
