package api_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/media"
)

var blobNameRE = regexp.MustCompile(`^media/(photo|video|audio|document)/[^/]+__[0-9a-f]{8}(\.[a-z0-9]+)?$`)

func TestE2EMediaStream(t *testing.T) {
	ts := apitest.NewServer(t)
	a, b := ts.Register(t, ""), ts.Register(t, "")
	content := []byte("0123456789abcdefghijklmnopqrstuvwxyz")
	up := ts.Upload(t, a.Key, apitest.Part{Name: "file", Filename: "café notes.txt", ContentType: "text/plain", Body: content}).Must(t, 201)
	id := up.Str("id")
	sum := sha256.Sum256(content)
	etag := `"` + hex.EncodeToString(sum[:]) + `"`
	created, _ := time.Parse(time.RFC3339, up.Str("createdAt"))
	lastModified := created.UTC().Format(http.TimeFormat)
	bal := ts.Balance(t, a.Key)

	r := ts.Stream(t, "GET", a.Key, id).Must(t, 200)
	if !bytes.Equal(r.Body, content) || r.Header.Get("Content-Type") != "text/plain" || r.Header.Get("Accept-Ranges") != "bytes" ||
		r.Header.Get("ETag") != etag || r.Header.Get("Content-Length") != "36" || r.Header.Get("Last-Modified") != lastModified ||
		r.Header.Get("X-Content-Type-Options") != "nosniff" || r.Header.Get("Content-Security-Policy") != "default-src 'none'; sandbox" {
		t.Fatalf("full stream: %v %q", r.Header, r.Body)
	}
	if cd := r.Header.Get("Content-Disposition"); cd != `inline; filename="caf_ notes.txt"; filename*=UTF-8''caf%C3%A9%20notes.txt` {
		t.Fatalf("Content-Disposition %q", cd)
	}
	for _, tc := range []struct{ rng, want, cr string }{
		{"bytes=0-9", "0123456789", "bytes 0-9/36"},
		{"bytes=-5", "vwxyz", "bytes 31-35/36"},
		{"bytes=30-", "uvwxyz", "bytes 30-35/36"},
		{"bytes=35-100", "z", "bytes 35-35/36"},
	} {
		r := ts.Stream(t, "GET", a.Key, id, "Range", tc.rng).Must(t, 206)
		if string(r.Body) != tc.want || r.Header.Get("Content-Range") != tc.cr {
			t.Fatalf("%s: %q %q", tc.rng, r.Body, r.Header.Get("Content-Range"))
		}
	}
	paid := 5 // 1 full + 4 single ranges
	if got := ts.Balance(t, a.Key); got != bal-paid {
		t.Fatalf("balance %d, want %d after %d streams", got, bal-paid, paid)
	}
	// Each subtest counts its own charges from the balance it starts with.
	t.Run("MultipleRanges", func(t *testing.T) {
		before := ts.Balance(t, a.Key)
		r := ts.Stream(t, "GET", a.Key, id, "Range", "bytes=0-1,10-12").Must(t, 206)
		mt, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if mt != "multipart/byteranges" {
			t.Fatalf("Content-Type %q", mt)
		}
		mr := multipart.NewReader(bytes.NewReader(r.Body), params["boundary"])
		var got []string
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				break
			} else if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(p)
			got = append(got, p.Header.Get("Content-Range")+"="+string(b))
		}
		if strings.Join(got, ";") != "bytes 0-1/36=01;bytes 10-12/36=abc" {
			t.Fatalf("parts %v", got)
		}
		if got := ts.Balance(t, a.Key); got != before-1 {
			t.Fatalf("balance %d, want %d after one stream of two ranges", got, before-1)
		}
	})
	t.Run("IfRange", func(t *testing.T) {
		before := ts.Balance(t, a.Key)
		if r := ts.Stream(t, "GET", a.Key, id, "Range", "bytes=0-0", "If-Range", etag); r.Status != 206 || string(r.Body) != "0" {
			t.Fatalf("matching If-Range: %d", r.Status)
		}
		if r := ts.Stream(t, "GET", a.Key, id, "Range", "bytes=0-0", "If-Range", `"stale"`); r.Status != 200 || len(r.Body) != 36 {
			t.Fatalf("stale If-Range: %d", r.Status)
		}
		if got := ts.Balance(t, a.Key); got != before-2 {
			t.Fatalf("balance %d, want %d after two streams", got, before-2)
		}
	})
	t.Run("Unsatisfiable416Refunded", func(t *testing.T) {
		before := ts.Balance(t, a.Key)
		r := ts.Stream(t, "GET", a.Key, id, "Range", "bytes=100-200").Problem(t, 416, cairn.ERANGE)
		if r.Header.Get("Content-Range") != "bytes */36" {
			t.Fatalf("Content-Range %q", r.Header.Get("Content-Range"))
		}
		if got := ts.Balance(t, a.Key); got != before {
			t.Fatal("a 416 was charged")
		}
	})
	t.Run("HeadIsFree", func(t *testing.T) {
		before := ts.Balance(t, a.Key)
		r := ts.Stream(t, "HEAD", a.Key, id).Must(t, 200)
		if len(r.Body) != 0 || r.Header.Get("Content-Length") != "36" || r.Header.Get("ETag") != etag {
			t.Fatalf("HEAD: %v", r.Header)
		}
		if got := ts.Balance(t, a.Key); got != before {
			t.Fatal("HEAD was charged")
		}
	})
	t.Run("HeadRange", func(t *testing.T) {
		r := ts.Stream(t, "HEAD", a.Key, id, "Range", "bytes=-5").Must(t, 206)
		if len(r.Body) != 0 || r.Header.Get("Content-Range") != "bytes 31-35/36" || r.Header.Get("Content-Length") != "5" {
			t.Fatalf("HEAD with Range: %v", r.Header)
		}
	})
	t.Run("ConditionalCharged", func(t *testing.T) {
		before := ts.Balance(t, a.Key)
		if r := ts.Stream(t, "GET", a.Key, id, "If-None-Match", etag); r.Status != 304 || len(r.Body) != 0 {
			t.Fatalf("If-None-Match: %d %q", r.Status, r.Body)
		}
		ts.Stream(t, "GET", a.Key, id, "If-Match", `"other"`).Problem(t, 412, cairn.EPRECONDITION)
		if r := ts.Stream(t, "GET", a.Key, id, "If-Match", etag, "Range", "bytes=1-2").Must(t, 206); string(r.Body) != "12" {
			t.Fatalf("If-Match with Range: %q", r.Body)
		}
		if got := ts.Balance(t, a.Key); got != before-3 {
			t.Fatalf("balance %d, want %d: 304, 412 and 206 cost one credit each", got, before-3)
		}
	})
	t.Run("Isolation", func(t *testing.T) {
		ts.Stream(t, "GET", b.Key, id).Problem(t, 404, cairn.ENOTFOUND)
		ts.Do(t, "GET", "/v1/media/"+id, b.Key, nil).Problem(t, 404, cairn.ENOTFOUND)
		ts.Do(t, "DELETE", "/v1/media/"+id, b.Key, nil).Problem(t, 404, cairn.ENOTFOUND)
		ts.Do(t, "GET", "/v1/media/not-a-uuid", a.Key, nil).Problem(t, 404, cairn.ENOTFOUND)
		ts.Stream(t, "GET", a.Key, cairn.NewID()).Problem(t, 404, cairn.ENOTFOUND)
		if r := ts.Do(t, "GET", "/v1/media", b.Key, nil).Must(t, 200); len(r.JSON["media"].([]any)) != 0 {
			t.Fatal("another agent's media listed")
		}
	})
	t.Run("MissingBlobIs502Refunded", func(t *testing.T) {
		up := ts.Upload(t, a.Key, apitest.Part{Name: "file", Filename: "gone.txt", Body: []byte("bye")}).Must(t, 201)
		if err := ts.Blobs.Delete(context.Background(), media.StorageKey(a.ID, up.Str("id"))); err != nil {
			t.Fatal(err)
		}
		before := ts.Balance(t, a.Key)
		ts.Stream(t, "GET", a.Key, up.Str("id")).Problem(t, 502, cairn.EUPSTREAM)
		if ts.Balance(t, a.Key) != before {
			t.Fatal("a 502 was not refunded")
		}
		// Delete still succeeds when the blob vanished.
		r := ts.Do(t, "DELETE", "/v1/media/"+up.Str("id"), a.Key, nil).Must(t, 200)
		if r.JSON["deleted"] != true || r.Str("id") != up.Str("id") || ts.Balance(t, a.Key) != before-2 {
			t.Fatalf("delete: %s", r.Body)
		}
		ts.Do(t, "DELETE", "/v1/media/"+up.Str("id"), a.Key, nil).Problem(t, 404, cairn.ENOTFOUND)
		if ts.Balance(t, a.Key) != before-4 {
			t.Fatal("a 404 delete was refunded")
		}
	})
}
