package memory

import (
	"context"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

// storeSearch is the store's own search when the service has no Index and
// the store searches memories itself (store.MemorySearch: PostgreSQL), so
// that every instance on that store finds every write at once; nil when
// search goes through the Index (the embedded store) or has none.
func (s *Service) storeSearch() store.MemorySearch {
	if s.Index != nil {
		return nil
	}
	ms, _ := store.SearchOf(s.Store)
	return ms
}

// fullText reports whether content search is enabled.
func (s *Service) fullText() bool { return s.Index != nil || s.storeSearch() != nil }

// textSearch returns the keys of the agent's memories matching text, best
// first, at most size of them.
func (s *Service) textSearch(ctx context.Context, agentID, text string, size int) ([]string, []float64, error) {
	ms := s.storeSearch()
	if ms == nil {
		return s.Index.search(ctx, agentID, text, size)
	}
	found, err := ms.SearchMemories(ctx, agentID, cairn.MemorySearchQuery{Text: text, Now: s.now().Now(), Limit: size})
	if err != nil {
		return nil, nil, err
	}
	keys, scores := make([]string, len(found)), make([]float64, len(found))
	for i, f := range found {
		keys[i], scores[i] = f.Key, f.Score
	}
	return keys, scores, nil
}

// storeCandidates is candidates answered by the store: every criterion
// and the expiry are applied there, so the first q.Limit are the answer.
func (s *Service) storeCandidates(ctx context.Context, ms store.MemorySearch, agentID string, q *Query) ([]candidate, error) {
	found, err := ms.SearchMemories(ctx, agentID, cairn.MemorySearchQuery{Text: q.ContentQuery, Key: q.Query, Tags: q.Tags,
		Now: s.now().Now(), Limit: q.Limit})
	if err != nil {
		return nil, err
	}
	out := make([]candidate, len(found))
	for i, f := range found {
		out[i] = candidate{f.Key, f.Score}
	}
	return out, nil
}

// setSearchText hands a store that searches itself the text of a version
// about to be committed: its content when plain text (as the Index holds
// it), else none.
func (s *Service) setSearchText(v *cairn.MemoryVersion, content []byte) {
	if s.storeSearch() == nil || !indexable(v) {
		return
	}
	text := string(content)
	v.SearchText = &text
}

// fillSearchText gives a store that searches itself the text of every
// version it holds without one (written before it indexed text, or by an
// older release), reading contents through s. A version whose content
// cannot be read now is left for the next start.
func (s *Service) fillSearchText(ctx context.Context) (int, error) {
	ms := s.storeSearch()
	if ms == nil {
		return 0, nil
	}
	n := 0
	err := ms.UnindexedMemoryVersions(ctx, func(m *cairn.Memory, v *cairn.MemoryVersion) error {
		var text *string
		if indexable(v) {
			content, err := s.content(ctx, m, v)
			if err != nil {
				return nil
			}
			t := string(content)
			text = &t
		}
		err := ms.SetMemoryText(ctx, m.AgentID, v.ID, text)
		if cairn.IsCode(err, cairn.ENOTFOUND) { // deleted meanwhile
			return nil
		} else if err != nil {
			return err
		}
		n++
		return nil
	})
	return n, err
}
