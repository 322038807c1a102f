package api

import (
	"bytes"
	"crypto/sha256"
	"io"
	"sync"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/gin-gonic/gin"
)

// Idempotency of memory creates: a POST carrying an Idempotency-Key that
// succeeded before (2xx) gets the first response again, with the header
// Idempotent-Replayed: true, and pays nothing. The same key with another
// body, or while the first request is still running, is 409. Keys are
// scoped to the agent and the route, kept for idempotencyTTL, and held in
// the process's memory (a restart forgets them).
const (
	idempotencyTTL  = 24 * time.Hour
	idempotencyMax  = 100_000
	idempotencyBody = 12 << 20
)

type idemEntry struct {
	hash    [32]byte
	done    bool
	status  int
	ctype   string
	etag    string
	body    []byte
	expires time.Time
}

type idemStore struct {
	mu sync.Mutex
	m  map[string]*idemEntry
}

var memIdem = &idemStore{m: map[string]*idemEntry{}}

type recordingWriter struct {
	gin.ResponseWriter
	buf bytes.Buffer
}

func (w *recordingWriter) Write(b []byte) (int, error) {
	w.buf.Write(b)
	return w.ResponseWriter.Write(b)
}

func (w *recordingWriter) WriteString(s string) (int, error) {
	w.buf.WriteString(s)
	return w.ResponseWriter.WriteString(s)
}

// idempotent runs before the billing middleware, so a replay is free.
func (s *Server) idempotent() gin.HandlerFunc {
	return func(c *gin.Context) {
		key := c.GetHeader("Idempotency-Key")
		if key == "" {
			c.Next()
			return
		}
		if len(key) > 255 {
			writeError(c, cairn.Errorf(cairn.EINVALID, "Idempotency-Key is at most 255 characters.").With("field", "Idempotency-Key"))
			return
		}
		head, _ := io.ReadAll(io.LimitReader(c.Request.Body, idempotencyBody))
		c.Request.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(head), c.Request.Body), c.Request.Body}
		hash := sha256.Sum256(head)
		id := agentOf(c).ID + "\x00" + c.FullPath() + "\x00" + key
		now := s.Clock.Now()
		st := memIdem
		st.mu.Lock()
		e, ok := st.m[id]
		if ok && now.After(e.expires) {
			delete(st.m, id)
			ok = false
		}
		switch {
		case ok && (e.hash != hash || !e.done):
			st.mu.Unlock()
			writeError(c, cairn.Errorf(cairn.ECONFLICT, "Idempotency-Key was used with another body, or its first request is still running."))
			return
		case ok:
			st.mu.Unlock()
			c.Header("Idempotent-Replayed", "true")
			if e.etag != "" {
				c.Header("ETag", e.etag)
			}
			c.Data(e.status, e.ctype, e.body)
			c.Abort()
			return
		}
		if len(st.m) >= idempotencyMax {
			for k, old := range st.m {
				if now.After(old.expires) || len(st.m) >= idempotencyMax {
					delete(st.m, k)
				}
			}
		}
		e = &idemEntry{hash: hash, expires: now.Add(idempotencyTTL)}
		st.m[id] = e
		st.mu.Unlock()
		rw := &recordingWriter{ResponseWriter: c.Writer}
		c.Writer = rw
		c.Next()
		st.mu.Lock()
		defer st.mu.Unlock()
		if status := rw.Status(); status >= 200 && status < 300 {
			e.done, e.status, e.ctype, e.body = true, status, rw.Header().Get("Content-Type"), rw.buf.Bytes()
			e.etag = rw.Header().Get("ETag")
		} else {
			delete(st.m, id) // a failure may be retried
		}
	}
}
