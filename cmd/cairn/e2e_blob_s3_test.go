package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/media"
	"github.com/cairn-dev/cairn/memory"
)

// s3Env is the environment of a server whose blobs live in a bucket of
// an in-process S3 server (gofakes3): the credentials, which serve reads
// from the environment only.
var s3Env = map[string]string{"CAIRN_S3_ACCESS_KEY": "e2e-access-key", "CAIRN_S3_SECRET_KEY": "e2e-secret-key-never-logged"}

// s3Server starts gofakes3 with a bucket and returns the serve config that
// the command line `--blob s3 --s3-endpoint ... --s3-bucket ...
// --s3-secure=false` and s3Env give (over the test defaults), and a client
// of the bucket for looking behind the server's back.
func s3Server(t *testing.T) (Config, *minio.Client) {
	t.Helper()
	srv := httptest.NewServer(gofakes3.New(s3mem.New()).Server())
	t.Cleanup(srv.Close)
	host := strings.TrimPrefix(srv.URL, "http://")
	c, err := minio.New(host, &minio.Options{Creds: credentials.NewStaticV4(s3Env["CAIRN_S3_ACCESS_KEY"], s3Env["CAIRN_S3_SECRET_KEY"], ""),
		Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.MakeBucket(context.Background(), "cairn-blobs", minio.MakeBucketOptions{}); err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(t, t.TempDir())
	fs := newServeFlagSet(&cfg)
	fs.SetOutput(io.Discard)
	args := []string{"--blob", "s3", "--s3-endpoint", host, "--s3-bucket", "cairn-blobs", "--s3-secure=false"}
	if err := parseWithEnv(fs, args, func(k string) string { return s3Env[k] }); err != nil {
		t.Fatal(err)
	}
	return cfg, c
}

// TestE2EBlobS3 runs media and memory through a server on --blob s3: the
// bytes live in the bucket under the blob names, stream whole and by
// range, go with a delete; a memory's content is read back and its expiry
// moves on the object; a screening proof names the service's snapshot
// route, which serves the snapshot from the bucket. The secret key never
// shows in the logs.
func TestE2EBlobS3(t *testing.T) {
	cfg, bucket := s3Server(t)
	ts := startServer(t, cfg)
	a := ts.register(t, "")
	ts.topUp(t, a, 1000)
	ctx := context.Background()

	t.Run("Media", func(t *testing.T) {
		var content bytes.Buffer
		for i := 0; content.Len() < 300_000; i++ { // several chunks
			fmt.Fprintf(&content, "line %d of the notes\n", i)
		}
		data := content.Bytes()
		up := ts.upload(t, a.Key, part{name: "file", filename: "notes.txt", contentType: "text/plain", body: data}).must(t, 201)
		id := up.str("id")
		key := media.StorageKey(a.ID, id)
		oi, err := bucket.StatObject(ctx, "cairn-blobs", key, minio.StatObjectOptions{})
		if err != nil || oi.Size != int64(len(data)) {
			t.Fatalf("object %s: %+v, %v", key, oi, err)
		}
		if r := ts.stream(t, "GET", a.Key, id).must(t, 200); !bytes.Equal(r.Body, data) {
			t.Fatalf("stream: %d bytes, want %d", len(r.Body), len(data))
		}
		r := ts.stream(t, "GET", a.Key, id, "Range", "bytes=100000-230000").must(t, 206)
		if !bytes.Equal(r.Body, data[100000:230001]) || r.Header.Get("Content-Range") != fmt.Sprintf("bytes 100000-230000/%d", len(data)) {
			t.Fatalf("range: %d bytes, Content-Range %q", len(r.Body), r.Header.Get("Content-Range"))
		}
		if r := ts.stream(t, "GET", a.Key, id, "Range", "bytes=-10").must(t, 206); !bytes.Equal(r.Body, data[len(data)-10:]) {
			t.Fatalf("suffix range: %q", r.Body)
		}
		ts.do(t, "DELETE", "/v1/media/"+id, a.Key, nil).must(t, 200)
		if _, err := bucket.StatObject(ctx, "cairn-blobs", key, minio.StatObjectOptions{}); minio.ToErrorResponse(err).Code != minio.NoSuchKey {
			t.Fatalf("object after delete: %v", err)
		}
		ts.stream(t, "GET", a.Key, id).problem(t, 404, cairn.ENOTFOUND)
	})

	t.Run("Memory", func(t *testing.T) {
		// Longer than memory.MaxInline even compressed, so that it is a blob.
		noise := make([]byte, 3*memory.MaxInline)
		_, _ = rand.NewChaCha8([32]byte{4}).Read(noise)
		content := strings.Repeat("the meeting moved to Thursday; ", 100) + hex.EncodeToString(noise)
		id := ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "notes/s3", "content": content, "expiresIn": "7d"}).must(t, 201).str("id")
		if r := ts.do(t, "GET", "/v1/memory/"+id, a.Key, nil).must(t, 200); r.str("content") != content {
			t.Fatalf("memory content %q", r.str("content"))
		}
		name := "agents/" + a.ID + "/v/" + id
		obj, err := bucket.GetObject(ctx, "cairn-blobs", name, minio.GetObjectOptions{})
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(obj) // memory content is stored compressed
		if err != nil {
			t.Fatalf("object %s: %v", name, err)
		}
		stored, err := io.ReadAll(zr)
		obj.Close()
		if err != nil || !strings.Contains(string(stored), content) {
			t.Fatalf("object %s: %q, %v", name, stored, err)
		}
		if info, err := ts.m.blobs.Stat(ctx, name); err != nil || info.ExpiresAt.IsZero() {
			t.Fatalf("blob of a 7d memory: %+v, %v", info, err)
		}
		ts.do(t, "PATCH", "/v1/memory/"+id+"/pin", a.Key, nil).must(t, 200)
		if info, err := ts.m.blobs.Stat(ctx, name); err != nil || !info.ExpiresAt.IsZero() {
			t.Fatalf("blob of a pinned memory: %+v, %v", info, err)
		}
		oi, err := bucket.StatObject(ctx, "cairn-blobs", name, minio.StatObjectOptions{})
		if err != nil || oi.UserMetadata["Cairn-Expires"] != "never" {
			t.Fatalf("object metadata after pin: %v, %v", oi.UserMetadata, err)
		}
	})

	t.Run("ProofSnapshotURL", func(t *testing.T) {
		r := ts.do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": []map[string]any{{"address": lazarusETH, "chain": "ethereum"}}}).must(t, 200)
		snap := r.JSON["proof"].(map[string]any)["dataSnapshots"].(map[string]any)["gov_sdn"].(map[string]any)
		// The service's own route, which lasts as long as the document
		// and names neither the bucket's endpoint nor its access key (a
		// presigned URL did, and expired after 7 days).
		u, _ := snap["storageUrl"].(string)
		if u != ts.base+"/v1/compliance/snapshots/"+snap["sha256"].(string) || strings.Contains(u, cfg.S3Endpoint) || strings.Contains(u, "X-Amz") {
			t.Fatalf("storageUrl %q is not the service's snapshot route", u)
		}
		resp, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		sum := sha256.Sum256(body)
		if err != nil || resp.StatusCode != 200 || hex.EncodeToString(sum[:]) != snap["sha256"] {
			t.Fatalf("GET storageUrl: %d, %d bytes, sha256 %x, want %v", resp.StatusCode, len(body), sum, snap["sha256"])
		}
	})

	ts.stop()
	logs := ts.logs.String()
	if !strings.Contains(logs, `"msg":"blob store","kind":"s3","endpoint":"`+cfg.S3Endpoint+`","bucket":"cairn-blobs","conditional_writes":true`) {
		t.Fatalf("no log line of the blob store:\n%s", logs)
	}
	if strings.Contains(logs, s3Env["CAIRN_S3_SECRET_KEY"]) || strings.Contains(logs, s3Env["CAIRN_S3_ACCESS_KEY"]) {
		t.Fatal("the S3 credentials are in the logs")
	}
}

// TestServeS3Flags: the S3 credentials come from the environment only, a
// command line giving them is refused without echoing them, and --blob s3
// needs an endpoint and a bucket.
func TestServeS3Flags(t *testing.T) {
	for _, name := range []string{"s3-access-key", "s3-secret-key"} {
		cfg := DefaultConfig()
		fs := newServeFlagSet(&cfg)
		var out bytes.Buffer
		fs.SetOutput(&out)
		err := parseWithEnv(fs, []string{"--" + name, "hunter2-on-the-command-line"}, func(string) string { return "" })
		if err == nil || !strings.Contains(err.Error(), EnvName(name)) || strings.Contains(err.Error()+out.String(), "hunter2") {
			t.Fatalf("--%s on the command line: %v", name, err)
		}
	}
	cfg := DefaultConfig()
	fs := newServeFlagSet(&cfg)
	var usage bytes.Buffer
	fs.SetOutput(&usage)
	env := func(k string) string { return s3Env[k] }
	if err := parseWithEnv(fs, []string{"-h"}, env); err == nil {
		t.Fatal("-h parsed")
	}
	if err := parseWithEnv(fs, []string{"--blob", "s3"}, env); err != nil {
		t.Fatal(err)
	}
	if cfg.S3AccessKey != s3Env["CAIRN_S3_ACCESS_KEY"] || cfg.S3SecretKey != s3Env["CAIRN_S3_SECRET_KEY"] {
		t.Fatalf("credentials from the environment: %q %q", cfg.S3AccessKey, cfg.S3SecretKey)
	}
	if !strings.Contains(usage.String(), "-s3-secret-key") || strings.Contains(usage.String(), s3Env["CAIRN_S3_SECRET_KEY"]) {
		t.Fatalf("usage:\n%s", usage.String())
	}
	if _, err := openBlobs(context.Background(), cfg, cairn.SystemClock{}); err == nil ||
		!strings.Contains(err.Error(), "--s3-endpoint and --s3-bucket") {
		t.Fatalf("--blob s3 without an endpoint: %v", err)
	}
	cfg.Blob = "tape"
	if _, err := openBlobs(context.Background(), cfg, cairn.SystemClock{}); err == nil || !strings.Contains(err.Error(), `--blob "tape"`) {
		t.Fatalf("--blob tape: %v", err)
	}
}
