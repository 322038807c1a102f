package memory

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/memory/vector"
)

// embedQueue holds the memories waiting for a vector of the operator's
// embedder (space "server"). It is not stored on its own: it is the set of
// latest versions of plain-text memories without a server vector of the
// current model, which Rebuild finds again at every start, so a memory
// written while the embedder is down is embedded after a restart too.
type embedQueue struct {
	mu      sync.Mutex
	pending map[[2]string]pendingEmbed // (agent, key) ->
	gen     uint64
	kick    chan struct{}
}

type pendingEmbed struct {
	gen   uint64
	force bool // embed again even when a vector of the model is stored
}

func (s *Service) queue() *embedQueue {
	s.embedOnce.Do(func() {
		s.embeds = &embedQueue{pending: map[[2]string]pendingEmbed{}, kick: make(chan struct{}, 1)}
	})
	return s.embeds
}

// embedLater queues the agent's key for the server embedder.
func (s *Service) embedLater(agent, key string, force bool) {
	q := s.queue()
	q.mu.Lock()
	q.gen++
	p := q.pending[[2]string{agent, key}]
	q.pending[[2]string{agent, key}] = pendingEmbed{gen: q.gen, force: force || p.force}
	q.mu.Unlock()
	select {
	case q.kick <- struct{}{}:
	default:
	}
}

// PendingEmbeds is how many memories wait for the server embedder.
func (s *Service) PendingEmbeds() int {
	q := s.queue()
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.pending)
}

// serverVector indexes v's stored server vector when it is of the current
// model and reports whether it did.
func (s *Service) serverVector(m *cairn.Memory, v *cairn.MemoryVersion, meta vector.Meta) bool {
	e := v.ServerEmbedding
	if e == nil || e.Model != s.Embedder.Model {
		return false
	}
	u := unit(e.Values)
	if u == nil {
		return false
	}
	if _, _, ok := s.Vectors.Reserve(m.AgentID, SpaceServer, len(u), e.Model); !ok {
		return false
	}
	s.Vectors.Set(m.AgentID, SpaceServer, e.Model, meta, u)
	return true
}

// RunEmbedder embeds queued memories in batches until ctx ends. A failed
// batch stays queued and is tried again after a pause that doubles up to
// a minute; writes never wait for it.
func (s *Service) RunEmbedder(ctx context.Context, log *slog.Logger) {
	if s.Embedder == nil || s.Vectors == nil {
		return
	}
	q := s.queue()
	pause := time.Second
	for {
		n, err := s.embedBatch(ctx, log)
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			log.Warn("embedder failed; memories stay queued", "err", err.Error(), "pending", s.PendingEmbeds(), "retry_in", pause.String())
			select {
			case <-ctx.Done():
				return
			case <-time.After(pause):
			}
			pause = min(2*pause, time.Minute)
			continue
		}
		pause = time.Second
		if n > 0 {
			continue
		}
		select {
		case <-ctx.Done():
			return
		case <-q.kick:
		}
	}
}

// embedBatch embeds up to one batch of queued memories and returns how
// many it took off the queue.
func (s *Service) embedBatch(ctx context.Context, log *slog.Logger) (int, error) {
	q := s.queue()
	type item struct {
		id   [2]string
		p    pendingEmbed
		m    *cairn.Memory
		v    *cairn.MemoryVersion
		text string
	}
	var items []item
	done := func(id [2]string, p pendingEmbed) {
		q.mu.Lock()
		if q.pending[id].gen == p.gen {
			delete(q.pending, id)
		}
		q.mu.Unlock()
	}
	q.mu.Lock()
	batch := make(map[[2]string]pendingEmbed, s.Embedder.batchSize())
	for id, p := range q.pending {
		if len(batch) == s.Embedder.batchSize() {
			break
		}
		batch[id] = p
	}
	q.mu.Unlock()
	taken := 0
	now := s.now().Now()
	for id, p := range batch {
		m, err := s.Store.MemoryByKey(ctx, id[0], id[1])
		if err != nil && !cairn.IsCode(err, cairn.ENOTFOUND) {
			return taken, err
		}
		var v *cairn.MemoryVersion
		if err == nil && !m.Expired(now) {
			if _, v, err = s.Store.MemoryByVersionID(ctx, id[0], m.LatestID); err != nil && !cairn.IsCode(err, cairn.ENOTFOUND) {
				return taken, err
			}
		}
		if v == nil || !indexable(v) || (!p.force && v.ServerEmbedding != nil && v.ServerEmbedding.Model == s.Embedder.Model) {
			done(id, p) // gone, not text, or embedded already
			taken++
			continue
		}
		content, err := s.content(ctx, m, v)
		if err != nil || strings.TrimSpace(string(content)) == "" {
			done(id, p)
			taken++
			continue
		}
		items = append(items, item{id, p, m, v, string(content)})
	}
	if len(items) == 0 {
		return taken, nil
	}
	texts := make([]string, len(items))
	for i := range items {
		texts[i] = items[i].text
	}
	vecs, err := s.Embedder.Embed(ctx, texts)
	if errors.Is(err, errPermanent) {
		// The endpoint refuses the batch: find the texts it refuses one by
		// one, and drop those (a new version queues the memory again).
		vecs = make([][]float32, len(items))
		for i := range items {
			vs, err := s.Embedder.Embed(ctx, texts[i:i+1])
			switch {
			case errors.Is(err, errPermanent):
				log.Warn("embedder refuses a memory; it is not embedded in space server", "agent", items[i].m.AgentID, "err", err.Error())
				done(items[i].id, items[i].p)
				taken++
			case err != nil:
				return taken, err
			default:
				vecs[i] = vs[0]
			}
		}
	} else if err != nil {
		return taken, err
	}
	for i, it := range items {
		if vecs[i] == nil {
			continue
		}
		e := &cairn.Embedding{Space: SpaceServer, Model: s.Embedder.Model, Values: vecs[i]}
		if err := s.Store.SetServerEmbedding(ctx, it.m.AgentID, it.v.ID, e); err != nil && !cairn.IsCode(err, cairn.ENOTFOUND) {
			return taken, err
		}
		unlock := s.lock(it.m.AgentID, it.m.Key)
		if cur, err := s.Store.MemoryByKey(ctx, it.m.AgentID, it.m.Key); err == nil && cur.LatestID == it.v.ID {
			v := *it.v
			v.ServerEmbedding = e
			s.serverVector(cur, &v, metaOf(cur, &v))
		}
		unlock()
		done(it.id, it.p)
		taken++
	}
	return taken, nil
}
