package s3

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

// request is what recorder saw of one request.
type request struct {
	method, rng, copySource string
	bodyLen                 int64
}

// recorder is a Transport that records the requests the store makes.
type recorder struct {
	mu   sync.Mutex
	reqs []request
}

func (rc *recorder) RoundTrip(r *http.Request) (*http.Response, error) {
	rc.mu.Lock()
	rc.reqs = append(rc.reqs, request{method: r.Method, rng: r.Header.Get("Range"),
		copySource: r.Header.Get("X-Amz-Copy-Source"), bodyLen: r.ContentLength})
	rc.mu.Unlock()
	return http.DefaultTransport.RoundTrip(r)
}

// take returns the requests recorded since the last take.
func (rc *recorder) take() []request {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	out := rc.reqs
	rc.reqs = nil
	return out
}

func random(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7919 + i/251)
	}
	return b
}

// TestExtendExpiryCopies: ExtendExpiry sends no content: one HEAD and one
// server-side copy of the object onto itself.
func TestExtendExpiryCopies(t *testing.T) {
	rec := &recorder{}
	clk := cairn.NewManualClock(epoch)
	s := fakeServer(t).store(t, Options{Clock: clk, Transport: rec})
	data := random(300 << 10)
	if _, err := s.Put(t.Context(), "a/b", bytes.NewReader(data), blob.PutOptions{ExpiresAt: epoch.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	rec.take()
	later := epoch.Add(48 * time.Hour)
	if err := s.ExtendExpiry(t.Context(), "a/b", later); err != nil {
		t.Fatal(err)
	}
	reqs := rec.take()
	if len(reqs) != 2 || reqs[0].method != http.MethodHead || reqs[1].method != http.MethodPut ||
		strings.TrimPrefix(reqs[1].copySource, "/") != s.bucket+"/a/b" || reqs[1].bodyLen > 0 {
		t.Fatalf("ExtendExpiry made %+v, want a HEAD and a bodiless copy", reqs)
	}
	clk.Advance(24 * time.Hour)
	st, err := s.Stat(t.Context(), "a/b")
	if err != nil || !st.ExpiresAt.Equal(later) {
		t.Fatalf("Stat after ExtendExpiry: %+v, %v", st, err)
	}
}

// TestRangeFetchesChunks: a range read GETs only the chunks that hold the
// range, whole reads one GET without a HEAD.
func TestRangeFetchesChunks(t *testing.T) {
	rec := &recorder{}
	s := fakeServer(t).store(t, Options{Transport: rec})
	data := random(10 << 20) // 10 MiB: chunks of 512 KiB
	if _, err := s.Put(t.Context(), "big", bytes.NewReader(data), blob.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	rec.take()
	const cs = 512 << 10
	off := int64(3*cs + 100)
	rc, _, err := s.Get(t.Context(), "big", off, cs) // crosses into the next chunk
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(rc)
	rc.Close()
	if err != nil || !bytes.Equal(got, data[off:off+cs]) {
		t.Fatalf("range read: %d bytes, %v", len(got), err)
	}
	reqs := rec.take()
	if len(reqs) != 2 || reqs[0].method != http.MethodHead || reqs[1].rng != "bytes=1572864-2621439" {
		t.Fatalf("range read made %+v, want a HEAD and a GET of chunks 3 and 4", reqs)
	}
	rc, _, err = s.Get(t.Context(), "big", 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, rc)
	rc.Close()
	if err != nil || n != int64(len(data)) {
		t.Fatalf("whole read: %d bytes, %v", n, err)
	}
	if reqs := rec.take(); len(reqs) != 1 || reqs[0].method != http.MethodGet || reqs[0].rng != "" {
		t.Fatalf("whole read made %+v, want one GET", reqs)
	}
}

// TestForeignObject: an object under a blob's key that the store did not
// write is no blob: reads are EUPSTREAM, a create is refused, Replace and
// Delete work.
func TestForeignObject(t *testing.T) {
	sv := fakeServer(t)
	s := sv.store(t, Options{Prefix: "p/"})
	if _, err := sv.client(t).PutObject(t.Context(), s.bucket, "p/x", strings.NewReader("not ours"), 8,
		minio.PutObjectOptions{DisableContentSha256: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Stat(t.Context(), "x"); !cairn.IsCode(err, cairn.EUPSTREAM) {
		t.Fatalf("Stat: %v, want %s", err, cairn.EUPSTREAM)
	}
	if _, _, err := s.Get(t.Context(), "x", 0, -1); !cairn.IsCode(err, cairn.EUPSTREAM) {
		t.Fatalf("Get: %v, want %s", err, cairn.EUPSTREAM)
	}
	if _, err := s.Put(t.Context(), "x", strings.NewReader("mine"), blob.PutOptions{}); !cairn.IsCode(err, cairn.ECONFLICT) {
		t.Fatalf("Put: %v, want %s", err, cairn.ECONFLICT)
	}
	if _, err := s.Put(t.Context(), "x", strings.NewReader("mine"), blob.PutOptions{Replace: true}); err != nil {
		t.Fatalf("Put with Replace: %v", err)
	}
	if err := s.Delete(t.Context(), "x"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Stat(t.Context(), "x"); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("Stat after Delete: %v", err)
	}
}

// TestDeleteExpired removes the objects of expired blobs only, leaves
// objects that are not blobs alone, and runs a full pass at most once per
// SweepEvery.
func TestDeleteExpired(t *testing.T) {
	sv := fakeServer(t)
	clk := cairn.NewManualClock(epoch)
	s := sv.store(t, Options{Clock: clk, Prefix: "blobs/", SweepEvery: time.Hour})
	ctx := t.Context()
	for name, exp := range map[string]time.Time{"a/1": epoch.Add(time.Minute), "a/2": epoch.Add(2 * time.Hour),
		"b": epoch.Add(time.Minute), "never": {}} {
		if _, err := s.Put(ctx, name, strings.NewReader(name), blob.PutOptions{ExpiresAt: exp}); err != nil {
			t.Fatal(err)
		}
	}
	c := sv.client(t)
	for _, key := range []string{"blobs/not-ours", "outside/a"} {
		if _, err := c.PutObject(ctx, s.bucket, key, strings.NewReader("x"), 1, minio.PutObjectOptions{DisableContentSha256: true}); err != nil {
			t.Fatal(err)
		}
	}
	clk.Advance(time.Hour)
	if n, err := s.DeleteExpired(ctx, clk.Now()); err != nil || n != 2 {
		t.Fatalf("DeleteExpired = %d, %v; want 2", n, err)
	}
	var keys []string
	for oi := range c.ListObjects(ctx, s.bucket, minio.ListObjectsOptions{Recursive: true}) {
		keys = append(keys, oi.Key)
	}
	if strings.Join(keys, " ") != "blobs/a/2 blobs/never blobs/not-ours outside/a" {
		t.Fatalf("objects left: %v", keys)
	}
	clk.Advance(2 * time.Hour)
	if n, err := s.DeleteExpired(ctx, clk.Now()); err != nil || n != 1 {
		t.Fatalf("second pass = %d, %v; want 1 (a/2)", n, err)
	}
	if _, err := s.Put(ctx, "c", strings.NewReader("c"), blob.PutOptions{ExpiresAt: clk.Now()}); err != nil {
		t.Fatal(err)
	}
	if n, err := s.DeleteExpired(ctx, clk.Now()); err != nil || n != 0 {
		t.Fatalf("pass within SweepEvery = %d, %v; want 0", n, err)
	}
	clk.Advance(time.Hour)
	if n, err := s.DeleteExpired(ctx, clk.Now()); err != nil || n != 1 {
		t.Fatalf("pass after SweepEvery = %d, %v; want 1", n, err)
	}
}

// TestSpoolFileRemoved: a Put larger than the memory spool leaves no
// temporary file behind, whether it succeeds or its reader fails.
func TestSpoolFileRemoved(t *testing.T) {
	dir := t.TempDir()
	s := fakeServer(t).store(t, Options{TempDir: dir})
	if _, err := s.Put(t.Context(), "big", bytes.NewReader(random(3<<20)), blob.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	r := io.MultiReader(bytes.NewReader(random(2<<20)), failing{})
	if _, err := s.Put(t.Context(), "broken", r, blob.PutOptions{}); err == nil {
		t.Fatal("Put with a failing reader succeeded")
	}
	if ents, err := os.ReadDir(dir); err != nil || len(ents) != 0 {
		t.Fatalf("temp dir holds %v (%v)", ents, err)
	}
}

type failing struct{}

func (failing) Read([]byte) (int, error) { return 0, io.ErrClosedPipe }

// testPresign: a presigned URL serves the content to a plain GET. (Neither
// server checks a SigV4 signature: the signing is minio-go's.)
func testPresign(t *testing.T, sv *server) {
	s := sv.store(t, Options{Prefix: "snap/", MaxSegmentLen: 200})
	data := random(70000)
	name := "gov_sdn/2025-11-19 a+b?.xml"
	if _, err := s.Put(t.Context(), name, bytes.NewReader(data), blob.PutOptions{ContentType: "application/xml"}); err != nil {
		t.Fatal(err)
	}
	u, err := s.PresignGet(t.Context(), name, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(u, "X-Amz-Signature=") || !strings.Contains(u, "X-Amz-Expires=3600") {
		t.Fatalf("presigned URL %s", u)
	}
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	sum := sha256.Sum256(body)
	if resp.StatusCode != http.StatusOK || hex.EncodeToString(sum[:]) != hexSum(data) {
		t.Fatalf("GET of the presigned URL: %d, %d bytes", resp.StatusCode, len(body))
	}
}

func hexSum(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func TestPresignGofakes3(t *testing.T) { testPresign(t, fakeServer(t)) }

func TestPresignS3rver(t *testing.T) { testPresign(t, s3rverServer(t)) }

// TestURL: the unsigned URL is the object's path-style address.
func TestURL(t *testing.T) {
	sv := fakeServer(t)
	s := sv.store(t, Options{Prefix: "p/", Bucket: sv.bucket(t)})
	want := "http://" + sv.endpoint + "/" + s.bucket + "/p/a%20b/c%3Fd"
	if got := s.URL("a b/c?d"); got != want {
		t.Fatalf("URL = %s, want %s", got, want)
	}
	s2 := sv.store(t, Options{BaseURL: "https://cdn.example/blobs/"})
	if got := s2.URL("a b/c"); got != "https://cdn.example/blobs/a%20b/c" {
		t.Fatalf("URL with BaseURL = %s", got)
	}
}

// TestNew refuses a missing bucket and reports the server's conditional
// writes.
func TestNew(t *testing.T) {
	sv := fakeServer(t)
	_, err := New(context.Background(), Options{Endpoint: sv.endpoint, AccessKey: "k", SecretKey: "s", Bucket: "absent"})
	if err == nil || !strings.Contains(err.Error(), `bucket "absent" does not exist`) {
		t.Fatalf("New on a missing bucket: %v", err)
	}
	if s := sv.store(t, Options{}); !s.Conditional() {
		t.Fatal("gofakes3 honours If-None-Match, the probe says it does not")
	}
	if s := sv.store(t, Options{Conditional: ConditionalOff}); s.Conditional() {
		t.Fatal("ConditionalOff ignored")
	}
}

// hook is a Transport that calls before on each request it is about to
// send (once the hook returns, the request goes on).
type hook struct{ before func(*http.Request) }

func (h hook) RoundTrip(r *http.Request) (*http.Response, error) {
	h.before(r)
	return http.DefaultTransport.RoundTrip(r)
}

// TestGetRetriesReplaced: a blob replaced between a range read's HEAD and
// its GET is read again from the HEAD (gofakes3 ignores If-Match on GET:
// the version in the GET response's metadata tells): the bytes and the
// Info are the new version's, never a mix.
func TestGetRetriesReplaced(t *testing.T) {
	sv := fakeServer(t)
	bucket := sv.bucket(t)
	other := sv.store(t, Options{Bucket: bucket})
	v1, v2 := random(200000), bytes.Repeat([]byte("v2"), 60000)
	if _, err := other.Put(t.Context(), "x", bytes.NewReader(v1), blob.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	s := sv.store(t, Options{Bucket: bucket, Transport: hook{func(r *http.Request) {
		if r.Method == http.MethodGet && r.Header.Get("Range") != "" {
			once.Do(func() {
				if _, err := other.Put(context.Background(), "x", bytes.NewReader(v2), blob.PutOptions{Replace: true}); err != nil {
					t.Error(err)
				}
			})
		}
	}}})
	rc, info, err := s.Get(t.Context(), "x", 1000, 5000)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(rc)
	rc.Close()
	if err != nil || !bytes.Equal(got, v2[1000:6000]) || info.SHA256 != hexSum(v2) || info.Size != int64(len(v2)) {
		t.Fatalf("Get across a replace: %d bytes, %v, Info %+v", len(got), err, info)
	}
}

// TestOpenReplaced: a reader opened on one version does not return bytes
// of another: after a replace, a Seek that needs a new GET fails with
// ENOTFOUND, while the bytes already fetched were the old version's.
func TestOpenReplaced(t *testing.T) {
	sv := fakeServer(t)
	s := sv.store(t, Options{})
	v1, v2 := random(300000), bytes.Repeat([]byte("v2"), 150000)
	if _, err := s.Put(t.Context(), "x", bytes.NewReader(v1), blob.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	rc, _, err := s.Open(t.Context(), "x")
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	head := make([]byte, 1000)
	if _, err := io.ReadFull(rc, head); err != nil || !bytes.Equal(head, v1[:1000]) {
		t.Fatalf("first read: %v", err)
	}
	if _, err := s.Put(t.Context(), "x", bytes.NewReader(v2), blob.PutOptions{Replace: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := rc.Seek(250000, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(rc, head); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("read after the replace: %v, want %s", err, cairn.ENOTFOUND)
	}
}
