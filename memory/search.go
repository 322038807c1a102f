package memory

import (
	"context"
	"sort"
	"strings"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/memory/vector"
)

// Search limits.
const (
	DefaultSearchLimit = 20
	MaxSearchLimit     = 100
	maxQueryLen        = 512
	// fullTextDepth is how many full-text hits are read before the other
	// criteria filter them.
	fullTextDepth = 1000
)

// Query is a search: Query matches key names (a key starting with it
// scores 2, one containing it elsewhere 1, case-insensitively),
// ContentQuery is ranked full-text search in content, Tags must all be on
// the memory. Criteria combine with AND.
type Query struct {
	Query        string
	ContentQuery string
	Tags         []string
	Limit        int
	// Mode "hybrid" ranks by the fusion of full-text and hash-v1 vector
	// ranks of ContentQuery (see hybridSearch); "" is full-text alone.
	Mode string
}

// Hit is one search result: the memory with its latest version, its score
// and the criteria it matched ("key", "content", "tags").
type Hit struct {
	View
	Score   float64
	Matched []string
}

type candidate struct {
	key   string
	score float64
}

// Search returns the agent's best matches, best first.
func (s *Service) Search(ctx context.Context, agentID string, q Query, reqID string) ([]Hit, error) {
	if q.Limit == 0 {
		q.Limit = DefaultSearchLimit
	}
	switch {
	case q.Limit < 1 || q.Limit > MaxSearchLimit:
		return nil, invalid("limit", "limit must be between 1 and %d.", MaxSearchLimit)
	case q.Query == "" && q.ContentQuery == "" && len(q.Tags) == 0:
		return nil, invalid("query", "Give at least one of query, contentQuery and tags.")
	case len(q.Query) > maxQueryLen || len(q.ContentQuery) > maxQueryLen:
		return nil, invalid("query", "Queries are at most %d bytes.", maxQueryLen)
	case q.ContentQuery != "" && !s.fullText():
		return nil, cairn.Errorf(cairn.EUNAVAILABLE, "Full-text search is not enabled.")
	case q.Mode != "" && q.Mode != ModeHybrid:
		return nil, invalid("mode", "mode must be hybrid or absent.")
	}
	hits, err := s.search(ctx, agentID, &q)
	if err != nil {
		return nil, err
	}
	detail := map[string]any{"query": q.Query, "contentQuery": q.ContentQuery, "tags": q.Tags, "count": len(hits)}
	if q.Mode != "" {
		detail["mode"] = q.Mode
	}
	if err := s.audit(ctx, agentID, cairn.AuditSearch, "", reqID, detail); err != nil {
		return nil, err
	}
	return hits, nil
}

// search runs a validated query.
func (s *Service) search(ctx context.Context, agentID string, q *Query) ([]Hit, error) {
	if q.Mode == ModeHybrid {
		return s.hybridSearch(ctx, agentID, q)
	}
	cands, err := s.candidates(ctx, agentID, q)
	if err != nil {
		return nil, err
	}
	now := s.now().Now()
	hits := []Hit{}
	needle := strings.ToLower(q.Query)
	for _, c := range cands {
		if len(hits) == q.Limit {
			break
		}
		m, err := s.Store.MemoryByKey(ctx, agentID, c.key)
		if cairn.IsCode(err, cairn.ENOTFOUND) {
			continue
		} else if err != nil {
			return nil, err
		}
		if m.Expired(now) || !vector.HasTags(m.Tags, q.Tags) {
			continue
		}
		var matched []string
		score := c.score
		if q.Query != "" {
			ks := keyScore(m.Key, needle)
			if ks == 0 {
				continue
			}
			matched = append(matched, "key")
			if q.ContentQuery == "" {
				score = ks
			}
		}
		if q.ContentQuery != "" {
			matched = append(matched, "content")
		}
		if len(q.Tags) > 0 {
			matched = append(matched, "tags")
		}
		_, v, err := s.Store.MemoryByVersionID(ctx, agentID, m.LatestID)
		if err != nil {
			continue
		}
		hits = append(hits, Hit{View: View{Memory: *m, Version: *v}, Score: score, Matched: matched})
	}
	return hits, nil
}

// candidates lists the keys to check, best first: the full-text hits when
// there is a content query, else the keys matching the key query (every key
// when there is none), prefix matches first, then in key order. A store
// that searches itself answers all of it, with the tags and the expiry.
func (s *Service) candidates(ctx context.Context, agentID string, q *Query) ([]candidate, error) {
	if ms := s.storeSearch(); ms != nil {
		return s.storeCandidates(ctx, ms, agentID, q)
	}
	if q.ContentQuery != "" {
		depth := q.Limit
		if q.Query != "" || len(q.Tags) > 0 {
			depth = fullTextDepth // the other criteria filter the hits
		}
		keys, scores, err := s.textSearch(ctx, agentID, q.ContentQuery, depth)
		if err != nil {
			return nil, err
		}
		out := make([]candidate, len(keys))
		for i := range keys {
			out[i] = candidate{keys[i], scores[i]}
		}
		return out, nil
	}
	needle := strings.ToLower(q.Query)
	var out []candidate
	if s.Index != nil {
		out = s.Index.matchKeys(agentID, needle, q.Tags)
	} else if err := s.Store.MemoryKeys(ctx, agentID, "", func(k, _ string) bool {
		if sc := keyScore(k, needle); sc > 0 {
			out = append(out, candidate{k, sc})
		}
		return true
	}); err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return out[i].key < out[j].key
	})
	return out, nil
}

// keyScore is 3 when key is needle (case-insensitively), 2 when it starts
// with needle, 1 when it contains it elsewhere, 0 otherwise (an empty needle
// matches everything with 1). The exact key ranking first is what lets a
// caller find a key by searching for it, however many keys extend it.
func keyScore(key, needle string) float64 { return lowerKeyScore(strings.ToLower(key), needle) }

func lowerKeyScore(k, needle string) float64 {
	if needle == "" {
		return 1
	}
	switch {
	case k == needle:
		return 3
	case strings.HasPrefix(k, needle):
		return 2
	case strings.Contains(k, needle):
		return 1
	}
	return 0
}
