package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/memory"
	"github.com/gin-gonic/gin"
)

// Idempotency of memory creates: a POST carrying an Idempotency-Key that
// succeeded before (2xx) gets the first response again, with the header
// Idempotent-Replayed: true, and pays nothing. The same key with another
// body, or while the first request is still running, is 409. Keys are
// scoped to the agent and the route and kept for idempotencyTTL in the
// store (Deps.Idempotency), so a retry after a restart replays too. Which
// requests are running is known only to this process.
//
// A single create (POST /v1/memory, /v1/memory/upload) commits its record
// in the same batch as the memory, so an acknowledged create always has it.
// A bulk request stores its record after the last item, once the response
// is known: a crash in between leaves items written with no record, and a
// retry then runs again, item by item, getting a 409 (refunded) for every
// item already stored; it is never charged twice for one memory.
const (
	idempotencyTTL = 24 * time.Hour
	idemKey        = "cairn.idem"
)

// idemRunning is the set of idempotency keys whose first request is
// running in this process.
type idemRunning struct {
	mu sync.Mutex
	m  map[string]struct{}
}

func (r *idemRunning) start(id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.m[id]; ok {
		return false
	}
	if r.m == nil {
		r.m = map[string]struct{}{}
	}
	r.m[id] = struct{}{}
	return true
}

func (r *idemRunning) done(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.m, id)
}

// idemPending is the idempotency record a request will leave when it
// succeeds; stored is set once a handler committed it with its write.
type idemPending struct {
	agent, route, key string
	hash              [32]byte
	created, expires  time.Time
	stored            *cairn.IdempotencyRecord
}

func (p *idemPending) record(status int, ctype, etag string, body []byte) *cairn.IdempotencyRecord {
	return &cairn.IdempotencyRecord{AgentID: p.agent, Route: p.route, Key: p.key, BodyHash: p.hash[:],
		Status: status, ContentType: ctype, ETag: etag, Body: body, CreatedAt: p.created, ExpiresAt: p.expires}
}

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

var errIdemConflict = cairn.Errorf(cairn.ECONFLICT, "Idempotency-Key was used with another body, or its first request is still running.")

// idempotent runs before the billing middleware, so a replay is free.
func (s *Server) idempotent() gin.HandlerFunc {
	return func(c *gin.Context) {
		key := c.GetHeader("Idempotency-Key")
		if key == "" || s.Idempotency == nil {
			c.Next()
			return
		}
		p, err := s.idemBegin(c, key)
		if err != nil {
			writeError(c, err)
			return
		}
		id := p.agent + "\x00" + p.route + "\x00" + key
		if !s.idemRunning.start(id) {
			writeError(c, errIdemConflict)
			return
		}
		defer s.idemRunning.done(id)
		ctx := c.Request.Context()
		if replayed, err := s.idemReplay(c, p); err != nil || replayed {
			if err != nil {
				writeError(c, err)
			}
			return
		}
		c.Set(idemKey, p)
		rw := &recordingWriter{ResponseWriter: c.Writer}
		c.Writer = rw
		c.Next()
		s.idemKeep(ctx, p, rw)
	}
}

// idemBegin checks the key and reads the request body to hash it, then
// puts it back for the handler. The body is hashed before billing: it is
// read only up to the route's own limit, and a larger one is refused
// here, unread.
func (s *Server) idemBegin(c *gin.Context, key string) (*idemPending, error) {
	if len(key) > 255 {
		return nil, cairn.Errorf(cairn.EINVALID, "Idempotency-Key is at most 255 characters.").With("field", "Idempotency-Key")
	}
	limit := s.bodyLimit(c)
	tooLarge := cairn.Errorf(cairn.ETOOLARGE, "The request body exceeds %d bytes.", limit).With("limit", limit)
	if c.Request.ContentLength > limit {
		return nil, tooLarge
	}
	head, _ := io.ReadAll(io.LimitReader(c.Request.Body, limit+1))
	if int64(len(head)) > limit {
		return nil, tooLarge
	}
	c.Request.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), c.Request.Body), c.Request.Body}
	p := &idemPending{agent: agentOf(c).ID, route: c.FullPath(), key: key, hash: sha256.Sum256(head), created: s.Clock.Now()}
	p.expires = p.created.Add(idempotencyTTL)
	return p, nil
}

// idemReplay answers the request with the stored answer of the first
// request with its key, if there is one (true): the same body gets that
// answer again, another body a 409.
func (s *Server) idemReplay(c *gin.Context, p *idemPending) (bool, error) {
	prev, err := s.Idempotency.Idempotency(c.Request.Context(), p.agent, p.route, p.key, p.created)
	switch {
	case cairn.IsCode(err, cairn.ENOTFOUND):
		return false, nil
	case err != nil:
		return false, err
	case !bytes.Equal(prev.BodyHash, p.hash[:]):
		return false, errIdemConflict
	}
	c.Header("Idempotent-Replayed", "true")
	if prev.ETag != "" {
		c.Header("ETag", prev.ETag)
	}
	c.Data(prev.Status, prev.ContentType, prev.Body)
	c.Abort()
	return true, nil
}

// idemKeep stores the answer of a request that succeeded, unless its
// handler committed it with its write; a failure is not kept, so that it
// may be retried.
func (s *Server) idemKeep(ctx context.Context, p *idemPending, rw *recordingWriter) {
	status := rw.Status()
	if p.stored != nil || status < 200 || status >= 300 {
		return
	}
	r := p.record(status, rw.Header().Get("Content-Type"), rw.Header().Get("ETag"), rw.buf.Bytes())
	// The write is done: keep its answer even if the client is gone.
	if err := s.Idempotency.PutIdempotency(context.WithoutCancel(ctx), r); err != nil {
		s.Logger.ErrorContext(ctx, "idempotency record not stored", "err", err)
	}
}

// replayable arranges for a single create to commit its idempotency record
// (when the request carries a key) with the memory: w.Replay renders the
// 201 response from the view being committed.
func replayable(c *gin.Context, w *memory.Write) {
	v, ok := c.Get(idemKey)
	if !ok {
		return
	}
	p := v.(*idemPending)
	w.Replay = func(v *memory.View) (*cairn.IdempotencyRecord, error) {
		var buf bytes.Buffer
		if err := jsonEncode(&buf, toMemoryJSON(v, false)); err != nil {
			return nil, err
		}
		p.stored = p.record(http.StatusCreated, jsonContentType, etagValue(v.Memory.Latest), buf.Bytes())
		return p.stored, nil
	}
}

// writeCreated writes the 201 of a single create: the bytes committed as
// its idempotency record when there is one, so that a replay is identical.
func writeCreated(c *gin.Context, v *memory.View) {
	if p, ok := c.Get(idemKey); ok && p.(*idemPending).stored != nil {
		r := p.(*idemPending).stored
		c.Header("ETag", r.ETag)
		c.Data(r.Status, r.ContentType, r.Body)
		return
	}
	etag(c, v.Memory.Latest)
	writeJSON(c, http.StatusCreated, toMemoryJSON(v, false))
}
