package memory

import (
	"context"
	"errors"
	"math"
	"regexp"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/memory/vector"
)

// Vector search limits.
const (
	DefaultVectorLimit = 10
	MaxVectorLimit     = 100
	// MaxVectorDims is the largest dimension of a client vector.
	MaxVectorDims = 4096
	// SpaceServer is the space of the operator's embedder (--embedder-url).
	SpaceServer = "server"
	// SpaceHash is the built-in space every plain-text memory is embedded
	// in (vector.HashEmbed).
	SpaceHash = vector.SpaceHash
)

// VectorFilter restricts a vector search; zero fields do not filter.
type VectorFilter = vector.Filter

var spaceName = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,63}$`)

// checkEmbedding validates a client vector of a write.
func (s *Service) checkEmbedding(e *cairn.Embedding) error {
	if e == nil {
		return nil
	}
	if s.Vectors == nil {
		return cairn.Errorf(cairn.EUNAVAILABLE, "Vector search is not enabled.")
	}
	switch {
	case !spaceName.MatchString(e.Space):
		return invalid("embedding.space", "space must be 1-64 characters of a-z, 0-9, '.', '_' and '-', starting with a letter or digit.")
	case e.Space == SpaceHash || e.Space == SpaceServer:
		return invalid("embedding.space", "space %q is computed by the service; name your own space.", e.Space)
	case len(e.Model) > 128:
		return invalid("embedding.model", "model is at most 128 characters.")
	case len(e.Values) == 0 || len(e.Values) > MaxVectorDims:
		return invalid("embedding.values", "values must hold 1-%d numbers.", MaxVectorDims)
	}
	if unit(e.Values) == nil {
		return invalid("embedding.values", "values must be finite and not all zero.")
	}
	return nil
}

// reserveSpace fixes the space's dimension and model if a checked vector
// is the space's first (422 when they disagree with the space's).
func (s *Service) reserveSpace(agent string, e *cairn.Embedding) error {
	if e == nil {
		return nil
	}
	if dim, model, ok := s.Vectors.Reserve(agent, e.Space, len(e.Values), e.Model); !ok {
		return cairn.Errorf(cairn.EUNPROCESSABLE, "Space %q holds %d-dimension vectors of model %q; this one has %d dimensions of model %q.",
			e.Space, dim, model, len(e.Values), e.Model).With("field", "embedding").With("dimensions", dim).With("model", model)
	}
	return nil
}

// unit returns a unit-length copy of v, nil when v is zero or not finite.
func unit(v []float32) []float32 {
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil
		}
	}
	u := append([]float32(nil), v...)
	if !vector.Normalize(u) {
		return nil
	}
	return u
}

// putVectors indexes the vectors of m's latest version v: hash-v1 from
// plain-text content, the client's vector if it sent one, and the server
// vector of the current model, if stored (else, when queue is set, the
// memory is queued for the embedder). The key's vectors of other spaces
// (of older versions) are dropped.
func (s *Service) putVectors(m *cairn.Memory, v *cairn.MemoryVersion, content []byte, queue bool) {
	if s.Vectors == nil {
		return
	}
	meta := metaOf(m, v)
	keep := map[string]bool{}
	if s.Embedder != nil && indexable(v) {
		if s.serverVector(m, v, meta) {
			keep[SpaceServer] = true
		} else if queue {
			s.embedLater(m.AgentID, m.Key, false)
		}
	}
	if indexable(v) {
		if vec := vector.HashEmbed(string(content)); vec != nil {
			s.Vectors.Set(m.AgentID, SpaceHash, SpaceHash, meta, vec)
			keep[SpaceHash] = true
		}
	}
	if e := v.Embedding; e != nil {
		if u := unit(e.Values); u != nil {
			s.Vectors.Set(m.AgentID, e.Space, e.Model, meta, u)
			keep[e.Space] = true
		}
	}
	s.Vectors.Drop(m.AgentID, m.Key, keep)
}

func metaOf(m *cairn.Memory, v *cairn.MemoryVersion) vector.Meta {
	return vector.Meta{Key: m.Key, VersionID: v.ID, Type: m.Type, Visibility: m.Visibility, Tags: append([]string(nil), m.Tags...)}
}

// removeVectors drops every vector of the agent's key.
func (s *Service) removeVectors(agent, key string) {
	if s.Vectors != nil {
		s.Vectors.Drop(agent, key, nil)
	}
}

// VectorQuery is a similarity search: Text is embedded in Space (hash-v1
// or server; by default server when an embedder is set, falling back to
// hash-v1 while it fails), or Vector is given in Space. Hits score at least MinScore (cosine
// similarity, -1 to 1).
type VectorQuery struct {
	Text     string
	Space    string
	Vector   []float32
	Filter   VectorFilter
	MinScore *float64
	Limit    int
}

// VectorSearch returns the agent's unexpired memories most similar to the
// query, best first, with their cosine similarity as score. q.Space is set
// to the space searched.
func (s *Service) VectorSearch(ctx context.Context, agentID string, q *VectorQuery, reqID string) ([]Hit, error) {
	if q.Limit == 0 {
		q.Limit = DefaultVectorLimit
	}
	minScore := float32(-1)
	switch {
	case s.Vectors == nil:
		return nil, cairn.Errorf(cairn.EUNAVAILABLE, "Vector search is not enabled.")
	case q.Limit < 1 || q.Limit > MaxVectorLimit:
		return nil, invalid("limit", "limit must be between 1 and %d.", MaxVectorLimit)
	case (q.Text == "") == (q.Vector == nil):
		return nil, invalid("query", "Give exactly one of query and vector.")
	case len(q.Text) > maxQueryLen:
		return nil, invalid("query", "Queries are at most %d bytes.", maxQueryLen)
	case q.MinScore != nil && !(*q.MinScore >= -1 && *q.MinScore <= 1):
		return nil, invalid("minScore", "minScore must be between -1 and 1.")
	case !(q.Filter.MinImportance >= 0 && q.Filter.MinImportance <= 1):
		return nil, invalid("minImportance", "minImportance must be between 0 and 1.")
	case q.Filter.Visibility != "" && q.Filter.Visibility != "private" && q.Filter.Visibility != "share":
		return nil, invalid("visibility", "visibility must be private or share.")
	}
	if q.MinScore != nil {
		minScore = float32(*q.MinScore)
	}
	var vec []float32
	if q.Text != "" {
		var err error
		if vec, err = s.embedQuery(ctx, q); err != nil {
			return nil, err
		}
	} else {
		if q.Space == "" {
			return nil, invalid("vector.space", "vector.space is required.")
		}
		if vec = unit(q.Vector); vec == nil {
			return nil, invalid("vector.values", "values must be finite and not all zero.")
		}
		dim, _, ok := s.Vectors.Dims(agentID, q.Space)
		if q.Space == SpaceHash {
			dim, ok = vector.HashDims, true
		}
		if !ok {
			return nil, cairn.Errorf(cairn.EUNPROCESSABLE, "Space %q holds no vectors.", q.Space).With("field", "vector.space")
		}
		if dim != len(vec) {
			return nil, cairn.Errorf(cairn.EUNPROCESSABLE, "Space %q holds %d-dimension vectors; this one has %d.", q.Space, dim, len(vec)).
				With("field", "vector.values").With("dimensions", dim)
		}
	}
	return s.vectorSearch(ctx, agentID, q, vec, minScore, reqID)
}

// embedQuery embeds a text query in its space, choosing the space when
// the query names none.
func (s *Service) embedQuery(ctx context.Context, q *VectorQuery) ([]float32, error) {
	explicit := q.Space != ""
	if !explicit {
		q.Space = SpaceHash
		if s.Embedder != nil {
			q.Space = SpaceServer
		}
	}
	switch q.Space {
	case SpaceHash:
	case SpaceServer:
		if s.Embedder == nil {
			return nil, cairn.Errorf(cairn.EUNPROCESSABLE, "No embedder is configured: space server holds no vectors.").With("field", "space")
		}
		qctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		vs, err := s.Embedder.call(qctx, []string{q.Text}) // once: a query does not wait out retries
		if err == nil {
			if u := unit(vs[0]); u != nil {
				return u, nil
			}
			err = errors.New("embedder: zero vector")
		}
		if explicit || ctx.Err() != nil {
			return nil, cairn.Errorf(cairn.EUPSTREAM, "The embedder failed; try again or search space hash-v1.")
		}
		q.Space = SpaceHash // while the embedder fails, text queries are lexical
	default:
		return nil, invalid("space", "Text queries are embedded in hash-v1 or server; give a vector for space %q.", q.Space)
	}
	vec := vector.HashEmbed(q.Text)
	if vec == nil {
		return nil, invalid("query", "query holds no word.")
	}
	return vec, nil
}

func (s *Service) vectorSearch(ctx context.Context, agentID string, q *VectorQuery, vec []float32, minScore float32, reqID string) ([]Hit, error) {
	hits, err := s.vectorHits(ctx, agentID, q.Space, vec, &q.Filter, minScore, q.Limit)
	if err != nil {
		return nil, err
	}
	detail := map[string]any{"vectorSearch": true, "space": q.Space, "query": q.Text, "count": len(hits)}
	if err := s.audit(ctx, agentID, cairn.AuditSearch, "", reqID, detail); err != nil {
		return nil, err
	}
	return hits, nil
}

// vectorHits returns up to limit verified hits: candidates whose memory
// still has the indexed version as its latest, is unexpired and is
// important enough. When the checks reject candidates, the search runs
// again deeper until it has limit hits or no candidates are left (a graph
// search that does not count them, total -1, goes deeper until it falls
// back to the exact scan, which does).
func (s *Service) vectorHits(ctx context.Context, agentID, space string, vec []float32, f *VectorFilter, minScore float32, limit int) ([]Hit, error) {
	now := s.now().Now()
	hits := []Hit{}
	for depth := limit + 8; ; depth *= 4 {
		cands, total := s.Vectors.TopK(agentID, space, vec, f, minScore, depth)
		hits = hits[:0]
		for _, c := range cands {
			if len(hits) == limit {
				return hits, nil
			}
			m, v, err := s.Store.MemoryByVersionID(ctx, agentID, c.VersionID)
			if cairn.IsCode(err, cairn.ENOTFOUND) {
				continue
			} else if err != nil {
				return nil, err
			}
			if m.LatestID != v.ID || m.Expired(now) || m.Importance < f.MinImportance {
				continue
			}
			hits = append(hits, Hit{View: View{Memory: *m, Version: *v}, Score: math.Round(float64(c.Score)*1e6) / 1e6, Matched: []string{"vector"}})
		}
		if len(hits) == limit || len(cands) == total {
			return hits, nil
		}
	}
}
