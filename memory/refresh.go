package memory

import (
	"context"

	"github.com/cairn-dev/cairn"
)

// Refresh brings the derived state of the agent's key (its full-text
// entry, its key for key search, its vectors) in line with the store: the
// memory's latest version as stored now, or nothing when the memory is
// gone. Instances sharing a store call it for each memory another instance
// changed; the writing instance updates its own as it writes, and a
// refresh of a key already in line reads no content. A refresh never
// queues the memory for the embedder: the writing instance does, and the
// server vector it stores reaches the others as a change of its own. It
// reports whether the derived state changed.
func (s *Service) Refresh(ctx context.Context, agentID, key string) (bool, error) {
	return s.refresh(ctx, agentID, key, nil, nil)
}

// CatchUp compares the derived state with the whole store, for when
// changes of other instances may have been missed (the connection that
// hears them was lost): every memory the store holds whose indexed version
// differs is refreshed, and every key indexed that the store no longer
// holds is dropped. It reads every head and latest version, like Rebuild,
// but the content only of the memories that changed, and it serves while
// it runs: writes of this instance meanwhile are never undone, as each key
// is compared with the store under its lock before it changes. It returns
// how many keys it changed.
func (s *Service) CatchUp(ctx context.Context) (int, error) {
	if s.Index == nil && s.Vectors == nil {
		return 0, nil
	}
	held := map[[2]string]bool{}
	add := func(agent, key string) { held[[2]string{agent, key}] = true }
	s.Index.eachKey(add)
	s.Vectors.EachKey(add)
	n := 0
	err := s.Store.ScanLatestMemories(ctx, func(m *cairn.Memory, v *cairn.MemoryVersion) error {
		delete(held, [2]string{m.AgentID, m.Key})
		changed, err := s.refresh(ctx, m.AgentID, m.Key, m, v)
		if changed {
			n++
		}
		return err
	})
	if err != nil {
		return n, err
	}
	for k := range held {
		changed, err := s.refresh(ctx, k[0], k[1], nil, nil)
		if err != nil {
			return n, err
		}
		if changed {
			n++
		}
	}
	return n, nil
}

// refresh is Refresh; seen, seenV are the head and latest version a scan
// read (nil: none), taken as they are when the key's vectors already hold
// them, else the store is read again under the key's lock.
func (s *Service) refresh(ctx context.Context, agentID, key string, seen *cairn.Memory, seenV *cairn.MemoryVersion) (bool, error) {
	if s.Index == nil && s.Vectors == nil {
		return false, nil
	}
	unlock := s.lock(agentID, key)
	defer unlock()
	if seen != nil && s.indexed(seen, seenV) {
		return false, nil
	}
	m, err := s.Store.MemoryByKey(ctx, agentID, key)
	if cairn.IsCode(err, cairn.ENOTFOUND) {
		s.unindex(agentID, key)
		return true, nil
	} else if err != nil {
		return false, err
	}
	_, v, err := s.Store.MemoryByVersionID(ctx, agentID, m.LatestID)
	if cairn.IsCode(err, cairn.ENOTFOUND) {
		return false, nil // the head moved meanwhile: the change that moved it is refreshed in turn
	} else if err != nil {
		return false, err
	}
	if s.indexed(m, v) {
		return false, nil
	}
	s.indexVersion(ctx, m, v, false)
	return true, nil
}

// indexed reports whether the vectors of m's key are those of its latest
// version v, with m's filters, in every space v has a vector in: then the
// full text and key search hold v too, as indexVersion puts them all. A
// memory without any vector is never known to be indexed.
func (s *Service) indexed(m *cairn.Memory, v *cairn.MemoryVersion) bool {
	if s.Vectors == nil {
		return false
	}
	var spaces []string
	if indexable(v) {
		spaces = append(spaces, SpaceHash)
	}
	if e := v.Embedding; e != nil {
		spaces = append(spaces, e.Space)
	}
	if s.Embedder != nil && v.ServerEmbedding != nil && v.ServerEmbedding.Model == s.Embedder.Model {
		spaces = append(spaces, SpaceServer)
	}
	return len(spaces) > 0 && s.Vectors.Holds(m.AgentID, metaOf(m, v), spaces)
}

// indexVersion puts v, the latest version of m, in the full-text index,
// key search and the vectors (queueing it for the embedder when queue is
// set and it has no server vector of the current model).
func (s *Service) indexVersion(ctx context.Context, m *cairn.Memory, v *cairn.MemoryVersion, queue bool) {
	var content []byte
	if indexable(v) {
		content, _ = s.content(ctx, m, v) // unreadable content is reported on read, not here
	}
	s.Index.put(m, v, content)
	s.putVectors(m, v, content, queue)
}

// unindex drops the agent's key from the full-text index, key search and
// the vectors.
func (s *Service) unindex(agent, key string) {
	s.Index.remove(agent, key)
	s.removeVectors(agent, key)
}

// eachKey calls fn with every agent and key of key search.
func (x *Index) eachKey(fn func(agent, key string)) {
	if x == nil {
		return
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	for agent, keys := range x.keys {
		for k := range keys {
			fn(agent, k)
		}
	}
}
