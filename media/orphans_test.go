package media_test

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/blob/s3"
	"github.com/cairn-dev/cairn/media"
	"github.com/cairn-dev/cairn/store/pebble"
)

// cutProxy is a TCP proxy in front of an S3 server that can lose the
// server's answers. Armed by cutNext, it drops the next answer the server
// sends (the server has handled the request by then: a PUT's object is
// stored) and cuts its connection, then stays down until up: every
// connection, open or new, is cut at once.
type cutProxy struct {
	ln       net.Listener
	upstream string

	mu    sync.Mutex
	cut   bool // the next answer is lost, then down
	down  bool
	conns map[net.Conn]bool
	cuts  int // connections cut while down
}

func newCutProxy(t *testing.T, upstream string) *cutProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{ln: ln, upstream: upstream, conns: map[net.Conn]bool{}}
	t.Cleanup(func() { ln.Close(); p.goDown() })
	go p.serve()
	return p
}

func (p *cutProxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		go p.relay(c)
	}
}

// relay carries one client connection to the server and back.
func (p *cutProxy) relay(c net.Conn) {
	p.mu.Lock()
	if p.down {
		p.cuts++
		p.mu.Unlock()
		c.Close()
		return
	}
	p.conns[c] = true
	p.mu.Unlock()
	s, err := net.Dial("tcp", p.upstream)
	if err != nil {
		c.Close()
		return
	}
	p.mu.Lock()
	p.conns[s] = true
	p.mu.Unlock()
	go func() { io.Copy(s, c); s.Close() }()
	buf := make([]byte, 32<<10)
	for {
		n, err := s.Read(buf)
		if n > 0 {
			p.mu.Lock()
			lose := p.cut || p.down
			p.cut = false
			p.mu.Unlock()
			if lose {
				p.goDown()
				return
			}
			if _, err := c.Write(buf[:n]); err != nil {
				break
			}
		}
		if err != nil {
			break
		}
	}
	c.Close()
	s.Close()
}

// cutNext loses the next answer, then goes down.
func (p *cutProxy) cutNext() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = true
}

// goDown cuts every connection and refuses new ones until up.
func (p *cutProxy) goDown() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = true
	for c := range p.conns {
		c.Close()
	}
	clear(p.conns)
}

func (p *cutProxy) up() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = false
}

func (p *cutProxy) cutCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cuts
}

// s3Fixture is a media service on a real S3 server (gofakes3) reached
// through a cutProxy.
type s3Fixture struct {
	s       *media.Service
	proxy   *cutProxy
	backend *s3mem.Backend
	logs    *apitest.LogBuffer
}

const orphanBucket = "cairn-media"

func newS3Fixture(t *testing.T) *s3Fixture {
	t.Helper()
	backend := s3mem.New()
	if err := backend.CreateBucket(orphanBucket); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	t.Cleanup(srv.Close)
	proxy := newCutProxy(t, srv.Listener.Addr().String())
	clock := cairn.NewManualClock(t0)
	blobs, err := s3.New(context.Background(), s3.Options{Endpoint: proxy.ln.Addr().String(), AccessKey: "test-access", SecretKey: "test-secret",
		Bucket: orphanBucket, Clock: clock, Conditional: s3.ConditionalOn})
	if err != nil {
		t.Fatal(err)
	}
	db, err := pebble.Open(t.TempDir(), pebble.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	logs := &apitest.LogBuffer{}
	s := &media.Service{Store: db, Blobs: blobs, Clock: clock, Logger: slog.New(slog.NewTextHandler(logs, nil))}
	t.Cleanup(s.Close)
	return &s3Fixture{s: s, proxy: proxy, backend: backend, logs: logs}
}

// objects returns the keys of the agent's media objects in the bucket.
func (f *s3Fixture) objects(t *testing.T, agentID string) []string {
	t.Helper()
	list, err := f.backend.ListBucket(orphanBucket, &gofakes3.Prefix{HasPrefix: true, Prefix: "media/" + agentID + "/"}, gofakes3.ListBucketPage{})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, o := range list.Contents {
		keys = append(keys, o.Key)
	}
	return keys
}

// waitFor waits until cond holds (the bound only ends a test that hangs).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("still waiting for %s", what)
		}
	}
}

// TestFailedPutLeavesNoObject: an S3 server that stores an upload's object
// and loses its answer, then stays away, fails the upload although the
// object is there; once the server is back the object is deleted, by the
// delete retried in the background while the server was away.
func TestFailedPutLeavesNoObject(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newS3Fixture(t)
	f.proxy.cutNext()
	_, err := f.s.Upload(ctx, "agent-a", file("a.txt", "", "kept by the server"), media.Options{Pinned: true})
	if !cairn.IsCode(err, cairn.EUNAVAILABLE) {
		t.Fatalf("Upload: %v, want %s", err, cairn.EUNAVAILABLE)
	}
	cuts := f.proxy.cutCount()
	keys := f.objects(t, "agent-a")
	if len(keys) != 1 {
		t.Fatalf("objects %q: the server did not keep the upload's object, so this shows nothing", keys)
	}
	id := strings.TrimPrefix(keys[0], "media/agent-a/")
	if _, err := f.s.Get(ctx, "agent-a", id); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("Get of the failed upload: %v", err)
	}
	waitFor(t, "a delete tried while the server is away", func() bool { return f.proxy.cutCount() > cuts })
	if n := media.PendingDeletes(f.s); n != 1 {
		t.Fatalf("%d deletes pending while the server is away, want 1", n)
	}
	f.proxy.up()
	waitFor(t, "the orphan's delete", func() bool { return len(f.objects(t, "agent-a")) == 0 && media.PendingDeletes(f.s) == 0 })
	if strings.Contains(f.logs.String(), "gave up") {
		t.Fatalf("a delete was given up:\n%s", f.logs)
	}
}

// TestFailedCommitLeavesNoObject: a Commit that cannot reach the blob
// store (to make the staged blob pinned) fails, and the staged blob is
// deleted once the store is back.
func TestFailedCommitLeavesNoObject(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newS3Fixture(t)
	st, err := f.s.Stage(ctx, "agent-a", file("a.txt", "", "staged"), media.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f.proxy.goDown()
	if _, err := st.Commit(ctx, media.Options{Pinned: true}); !cairn.IsCode(err, cairn.EUNAVAILABLE) {
		t.Fatalf("Commit: %v, want %s", err, cairn.EUNAVAILABLE)
	}
	if len(f.objects(t, "agent-a")) != 1 || media.PendingDeletes(f.s) != 1 {
		t.Fatalf("objects %q, %d deletes pending: want the staged object and its pending delete", f.objects(t, "agent-a"), media.PendingDeletes(f.s))
	}
	f.proxy.up()
	waitFor(t, "the staged object's delete", func() bool { return len(f.objects(t, "agent-a")) == 0 && media.PendingDeletes(f.s) == 0 })
}

// TestOrphanDeleteGivenUp: a delete still failing when its bound has passed
// is given up with a warning, and so is one still waiting at Close.
func TestOrphanDeleteGivenUp(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		bound time.Duration
		why   string
	}{
		{"Bound", time.Nanosecond, "did not take the delete in time"},
		{"Close", time.Hour, "the media service is closing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newS3Fixture(t)
			media.SetOrphanRetry(f.s, time.Hour, time.Hour, tc.bound)
			st, err := f.s.Stage(ctx, "agent-a", file("a.txt", "", "staged"), media.Options{})
			if err != nil {
				t.Fatal(err)
			}
			f.proxy.goDown()
			if _, err := st.Commit(ctx, media.Options{Pinned: true}); err == nil {
				t.Fatal("Commit succeeded with the server away")
			}
			if tc.name == "Close" {
				f.s.Close()
			}
			waitFor(t, "the delete given up", func() bool { return media.PendingDeletes(f.s) == 0 })
			if logs := f.logs.String(); !strings.Contains(logs, "level=WARN") || !strings.Contains(logs, tc.why) ||
				!strings.Contains(logs, "blob=media/agent-a/") {
				t.Fatalf("logs:\n%s", logs)
			}
			f.proxy.up()
			if keys := f.objects(t, "agent-a"); len(keys) != 1 {
				t.Fatalf("objects %q: the given up delete happened", keys)
			}
		})
	}
}
