package main

import (
	"bytes"
	"context"
	"fmt"
	"mime/multipart"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// restartableS3 is an in-process S3 server (gofakes3) whose listener can
// be closed and opened again on the same address, its objects kept.
type restartableS3 struct {
	t       *testing.T
	addr    string
	handler http.Handler
	srv     *http.Server
}

func newRestartableS3(t *testing.T) *restartableS3 {
	s := &restartableS3{t: t, handler: gofakes3.New(s3mem.New()).Server()}
	s.start("127.0.0.1:0")
	t.Cleanup(func() { s.srv.Close() })
	return s
}

func (s *restartableS3) start(addr string) {
	s.t.Helper()
	var l net.Listener
	var err error
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if l, err = net.Listen("tcp", addr); err == nil || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		s.t.Fatal(err)
	}
	s.addr = l.Addr().String()
	s.srv = &http.Server{Handler: s.handler}
	go s.srv.Serve(l)
}

// stop closes the listener and every connection: requests are refused.
func (s *restartableS3) stop() { s.srv.Close() }

// TestE2EBlobS3RestartUnderLoad stops the S3 server for 8 seconds while
// agents upload media: an upload in flight fails cleanly, 503 with
// Retry-After and the problem code "unavailable" (never a 500 or a 502),
// and is refunded; uploads succeed again once the server is back, without
// a restart of the service; every acknowledged file streams back intact,
// and no object is left in the bucket that no acknowledged upload owns
// (the objects of failed uploads are deleted, if need be once the server
// is back).
func TestE2EBlobS3RestartUnderLoad(t *testing.T) {
	s3 := newRestartableS3(t)
	bucket, err := minio.New(s3.addr, &minio.Options{Creds: credentials.NewStaticV4(s3Env["CAIRN_S3_ACCESS_KEY"], s3Env["CAIRN_S3_SECRET_KEY"], ""),
		Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := bucket.MakeBucket(ctx, "cairn-blobs", minio.MakeBucketOptions{}); err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(t, t.TempDir())
	fs := newServeFlagSet(&cfg)
	if err := parseWithEnv(fs, []string{"--blob", "s3", "--s3-endpoint", s3.addr, "--s3-bucket", "cairn-blobs", "--s3-secure=false"},
		func(k string) string { return s3Env[k] }); err != nil {
		t.Fatal(err)
	}
	cfg.WriteLimitPerAgent, cfg.RateLimitPerKey = 1000000, 1000000
	ts := startServer(t, cfg)
	a := ts.register(t, "")
	ts.topUp(t, a, 100000)

	upload := func(name string, body []byte) (*response, error) {
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		pw, err := w.CreateFormFile("file", name)
		if err != nil {
			return nil, err
		}
		pw.Write(body)
		w.Close()
		req, err := http.NewRequest("POST", ts.base+"/v1/media/upload", &buf)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", w.FormDataContentType())
		req.Header.Set("Authorization", "Bearer "+a.Key)
		return ts.roundTrip(t, req)
	}
	content := func(name string) []byte { return bytes.Repeat([]byte(name+" "), 2000) }
	before := ts.balance(t, a.Key)
	if r, err := upload("first.txt", content("first.txt")); err != nil || r.Status != 201 {
		t.Fatalf("first upload: %v %v", r, err)
	}
	price := before - ts.balance(t, a.Key)

	load := startFaultLoad(3, func(w, i int) (string, *response, error) {
		name := fmt.Sprintf("w%d-%d.txt", w, i)
		r, err := upload(name, content(name))
		return name, r, err
	})
	load.waitAcked(t, 10, "before the stop")
	// The S3 client retries a refused request for a few seconds (10
	// times, up to a second apart): an outage shorter than that only slows
	// the uploads down. This one is longer.
	s3.stop()
	time.Sleep(8 * time.Second)
	down := load.acked()
	s3.start(s3.addr)
	load.waitAcked(t, down+10, "in the 60 s after the S3 server came back")
	ids, failed := load.end(t)
	if failed == 0 {
		t.Error("no upload failed while the S3 server was stopped")
	}
	// The failed uploads were refunded: the balance is what the
	// acknowledged ones cost (the first included).
	want := before - price*(len(ids)+1)
	for deadline := time.Now().Add(30 * time.Second); ts.balance(t, a.Key) != want; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("balance %d, want %d: %d acknowledged uploads, %d failed", ts.balance(t, a.Key), want, len(ids), failed)
		}
	}
	// No object without an acknowledged upload. A failed upload may have
	// left one (the server stored it, then its answer was cut): the service
	// deletes it, in the background once the server is back, so the bucket
	// is read until none is left; one never deleted fails the test.
	var owned int
	var orphans []string
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		owned, orphans = 0, nil
		for obj := range bucket.ListObjects(ctx, "cairn-blobs", minio.ListObjectsOptions{Prefix: "media/" + a.ID + "/", Recursive: true}) {
			if obj.Err != nil {
				t.Fatal(obj.Err)
			}
			id := strings.TrimPrefix(obj.Key, "media/"+a.ID+"/")
			if _, ok := ids[id]; ok {
				owned++
			} else if id != "" {
				if r := ts.do(t, "GET", "/v1/media/"+id, a.Key, nil); r.Status != 200 { // 200: the first upload's
					orphans = append(orphans, fmt.Sprintf("object %s has no media record (status %d)", obj.Key, r.Status))
				}
			}
		}
		if len(orphans) == 0 || time.Now().After(deadline) {
			break
		}
	}
	for _, o := range orphans {
		t.Errorf("%s, 30 s after the uploads ended", o)
	}
	if owned != len(ids) {
		t.Errorf("%d of the %d acknowledged uploads have their object in the bucket", owned, len(ids))
	}
	for id, name := range ids {
		r := ts.do(t, "GET", "/v1/media/"+id+"/stream", a.Key, nil).must(t, 200)
		if !bytes.Equal(r.Body, content(name)) {
			t.Fatalf("%s streams %d bytes, not what was uploaded", name, len(r.Body))
		}
	}
	t.Logf("%d uploads acknowledged, %d failed cleanly while the S3 server was stopped", len(ids), failed)
}
