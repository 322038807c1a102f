package api_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/blob/blobtest"
)

// TestE2EMediaRangesAcrossChunks checks exact bytes of ranges that start,
// end and cross the blob store's 64 KiB verification chunks of a 300 KB
// file, single and several at once.
func TestE2EMediaRangesAcrossChunks(t *testing.T) {
	ts := apitest.NewServer(t)
	a := ts.Register(t, "")
	content := make([]byte, 300_000)
	_, _ = rand.NewChaCha8([32]byte{1}).Read(content)
	id := ts.Upload(t, a.Key, apitest.Part{Name: "file", Filename: "big.bin", ContentType: "application/octet-stream", Body: content}).Must(t, 201).Str("id")
	size := int64(len(content))
	for _, tc := range []struct {
		rng        string
		start, end int64 // inclusive
	}{
		{"bytes=65530-65545", 65530, 65545},
		{"bytes=65536-131071", 65536, 131071},
		{"bytes=0-0", 0, 0},
		{"bytes=-70000", size - 70000, size - 1},
		{"bytes=262143-", 262143, size - 1},
		{"bytes=1000-999999", 1000, size - 1},
	} {
		t.Run(tc.rng, func(t *testing.T) {
			r := ts.Stream(t, "GET", a.Key, id, "Range", tc.rng).Must(t, 206)
			if cr := fmt.Sprintf("bytes %d-%d/%d", tc.start, tc.end, size); r.Header.Get("Content-Range") != cr {
				t.Fatalf("Content-Range %q, want %q", r.Header.Get("Content-Range"), cr)
			}
			if !bytes.Equal(r.Body, content[tc.start:tc.end+1]) {
				t.Fatalf("%d bytes differ from content[%d:%d]", len(r.Body), tc.start, tc.end+1)
			}
		})
	}
	t.Run("TooManyRangesServeTheWhole", func(t *testing.T) {
		var specs []string
		for i := range 17 {
			specs = append(specs, fmt.Sprintf("%d-%d", i*1000, i*1000+1))
		}
		r := ts.Stream(t, "GET", a.Key, id, "Range", "bytes="+strings.Join(specs, ",")).Must(t, 200)
		if !bytes.Equal(r.Body, content) {
			t.Fatalf("%d bytes, want the whole %d", len(r.Body), len(content))
		}
	})
	t.Run("OverlappingRangesMerge", func(t *testing.T) {
		r := ts.Stream(t, "GET", a.Key, id, "Range", "bytes=100-199,150-299,300-310").Must(t, 206)
		if r.Header.Get("Content-Range") != fmt.Sprintf("bytes 100-310/%d", size) || !bytes.Equal(r.Body, content[100:311]) {
			t.Fatalf("merged range: %q, %d bytes", r.Header.Get("Content-Range"), len(r.Body))
		}
	})
	t.Run("SeveralAcrossChunks", func(t *testing.T) {
		r := ts.Stream(t, "GET", a.Key, id, "Range", "bytes=65535-65536,-3,131000-131100").Must(t, 206)
		_, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		mr := multipart.NewReader(bytes.NewReader(r.Body), params["boundary"])
		want := [][2]int64{{65535, 65536}, {size - 3, size - 1}, {131000, 131100}}
		for i := 0; ; i++ {
			p, err := mr.NextPart()
			if err == io.EOF {
				if i != len(want) {
					t.Fatalf("%d parts, want %d", i, len(want))
				}
				return
			} else if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(p)
			w := want[i]
			if !bytes.Equal(got, content[w[0]:w[1]+1]) || p.Header.Get("Content-Range") != fmt.Sprintf("bytes %d-%d/%d", w[0], w[1], size) {
				t.Fatalf("part %d: %q, %d bytes", i, p.Header.Get("Content-Range"), len(got))
			}
		}
	})
	if r := ts.Stream(t, "GET", a.Key, id).Must(t, 200); !bytes.Equal(r.Body, content) {
		t.Fatal("whole file differs")
	}
}

// TestE2EMediaVerifiedFile: once a file has been read whole (and so
// verified, a second after it was written), the whole stream (sent by the
// kernel from the file), HEAD and ranges still return its exact bytes.
func TestE2EMediaVerifiedFile(t *testing.T) {
	ts := apitest.NewServer(t)
	a, content, id := uploadRandom(t, ts, 1<<20+17, 2)
	time.Sleep(1100 * time.Millisecond) // the file settles (blob/fs verify.go)
	for i := range 3 {                  // the first read verifies the file, the next ones read it as it is
		if r := ts.Stream(t, "GET", a.Key, id).Must(t, 200); !bytes.Equal(r.Body, content) {
			t.Fatalf("read %d: %d bytes differ from the %d stored", i, len(r.Body), len(content))
		}
	}
	if r := ts.Stream(t, "HEAD", a.Key, id).Must(t, 200); r.Header.Get("Content-Length") != fmt.Sprint(len(content)) || len(r.Body) != 0 {
		t.Fatalf("HEAD: length %q, %d body bytes", r.Header.Get("Content-Length"), len(r.Body))
	}
	for _, rng := range [][2]int{{5, 1028}, {200_000, 900_000}, {len(content) - 10, len(content) - 1}} {
		r := ts.Stream(t, "GET", a.Key, id, "Range", fmt.Sprintf("bytes=%d-%d", rng[0], rng[1])).Must(t, 206)
		if !bytes.Equal(r.Body, content[rng[0]:rng[1]+1]) {
			t.Fatalf("range %v: %d bytes differ", rng, len(r.Body))
		}
	}
}

// TestE2EMediaDamagedFileNotServed: a verified file damaged on disk is
// never served whole: the read stops at the damaged chunk (the response
// ends short of its length), and so does every read after it.
func TestE2EMediaDamagedFileNotServed(t *testing.T) {
	ts := apitest.NewServer(t)
	a, content, id := uploadRandom(t, ts, 300_000, 3)
	time.Sleep(1100 * time.Millisecond) // the file settles and the next read verifies it
	ts.Stream(t, "GET", a.Key, id).Must(t, 200)
	time.Sleep(50 * time.Millisecond) // past the kernel's clock granularity
	damage(t, ts, "media/"+a.ID+"/"+id, 200_000)
	for i := range 2 {
		req, _ := http.NewRequest("GET", ts.URL+"/v1/media/"+id+"/stream", nil)
		req.Header.Set("Authorization", "Bearer "+a.Key)
		r, err := ts.RoundTrip(t, req)
		if err == nil && r.Status == 200 && len(r.Body) == len(content) {
			t.Fatalf("read %d of a damaged file: all %d bytes served", i, len(r.Body))
		}
	}
}

// damage flips one byte at off of the content file of the blob name in
// the server's blob/fs directory.
func damage(t *testing.T, ts *apitest.Server, name string, off int64) {
	t.Helper()
	sum := sha256.Sum256([]byte(name))
	key := hex.EncodeToString(sum[:])
	meta, err := os.ReadFile(filepath.Join(ts.Blobs.Root(), key[:2], key+".meta"))
	if err != nil {
		t.Fatal(err)
	}
	var rec struct{ Gen string }
	if err := json.Unmarshal(meta, &rec); err != nil {
		t.Fatal(err)
	}
	blobtest.FlipByte(t, filepath.Join(ts.Blobs.Root(), key[:2], key+"."+rec.Gen+".blob"), off)
}

// uploadRandom registers an agent and uploads n random bytes (seed) as
// its media file; it returns the agent, the bytes and the media id.
func uploadRandom(t *testing.T, ts *apitest.Server, n int, seed byte) (apitest.Agent, []byte, string) {
	a := ts.Register(t, "")
	content := make([]byte, n)
	_, _ = rand.NewChaCha8([32]byte{seed}).Read(content)
	id := ts.Upload(t, a.Key, apitest.Part{Name: "file", Filename: "big.bin", ContentType: "application/octet-stream", Body: content}).Must(t, 201).Str("id")
	return a, content, id
}
