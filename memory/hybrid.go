package memory

import (
	"context"
	"sort"
	"strings"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/memory/vector"
)

// Hybrid ranking: reciprocal rank fusion of the full-text and hash-v1
// vector rankings, boosted by importance:
//
//	score = (1/(k+rank_text) + 1/(k+rank_vector)) × (1 + importanceBoost×importance)
//
// with ranks from 1 and a term left out when the memory is not in that
// ranking (its top hybridDepth; vector hits only from hybridMinSimilarity:
// below it, hash-v1 similarities are mostly hash collisions). Ties go to
// the higher vector similarity, then to the smaller key.
const (
	ModeHybrid          = "hybrid"
	rrfK                = 60
	importanceBoost     = 0.5
	hybridDepth         = 200
	hybridMinSimilarity = 0.1
)

// hybridSearch is Search in hybrid mode: q.ContentQuery is both the
// full-text and the vector query; q.Query and q.Tags filter.
func (s *Service) hybridSearch(ctx context.Context, agentID string, q *Query) ([]Hit, error) {
	if !s.fullText() || s.Vectors == nil {
		return nil, cairn.Errorf(cairn.EUNAVAILABLE, "Hybrid search is not enabled.")
	}
	if q.ContentQuery == "" {
		return nil, invalid("contentQuery", "Hybrid search needs a contentQuery.")
	}
	type fused struct {
		rrf, sim float64
		via      []string
	}
	all := map[string]*fused{}
	add := func(key, via string, rank int) *fused {
		f := all[key]
		if f == nil {
			f = &fused{}
			all[key] = f
		}
		f.rrf += 1 / float64(rrfK+rank)
		f.via = append(f.via, via)
		return f
	}
	keys, _, err := s.textSearch(ctx, agentID, q.ContentQuery, hybridDepth)
	if err != nil {
		return nil, err
	}
	for i, k := range keys {
		add(k, "content", i+1)
	}
	if vec := vector.HashEmbed(q.ContentQuery); vec != nil {
		vs, _ := s.Vectors.TopK(agentID, SpaceHash, vec, &VectorFilter{Tags: q.Tags}, hybridMinSimilarity, hybridDepth)
		for i, c := range vs {
			add(c.Key, "vector", i+1).sim = float64(c.Score)
		}
	}
	now := s.now().Now()
	needle := strings.ToLower(q.Query)
	hits := []Hit{}
	sims := map[string]float64{}
	for k, f := range all {
		m, err := s.Store.MemoryByKey(ctx, agentID, k)
		if cairn.IsCode(err, cairn.ENOTFOUND) {
			continue
		} else if err != nil {
			return nil, err
		}
		if m.Expired(now) || !vector.HasTags(m.Tags, q.Tags) || keyScore(m.Key, needle) == 0 {
			continue
		}
		matched := f.via
		if q.Query != "" {
			matched = append([]string{"key"}, matched...)
		}
		if len(q.Tags) > 0 {
			matched = append(matched, "tags")
		}
		sims[k] = f.sim
		hits = append(hits, Hit{View: View{Memory: *m}, Score: f.rrf * (1 + importanceBoost*m.Importance), Matched: matched})
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		if si, sj := sims[hits[i].Memory.Key], sims[hits[j].Memory.Key]; si != sj {
			return si > sj
		}
		return hits[i].Memory.Key < hits[j].Memory.Key
	})
	out := hits[:0]
	for _, h := range hits {
		if len(out) == q.Limit {
			break
		}
		if _, v, err := s.Store.MemoryByVersionID(ctx, agentID, h.Memory.LatestID); err == nil {
			h.Version = *v
			out = append(out, h)
		}
	}
	return out, nil
}
