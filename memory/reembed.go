package memory

import (
	"context"

	"github.com/cairn-dev/cairn"
)

// Reembed embeds the agent's memories again in space: hash-v1 at once
// from their content, server by queueing every memory for the embedder
// (even those holding a vector of the current model). It returns how many
// memories it embedded or queued. It is free: it changes no memory.
func (s *Service) Reembed(ctx context.Context, agentID, space string) (int, error) {
	switch {
	case s.Vectors == nil:
		return 0, cairn.Errorf(cairn.EUNAVAILABLE, "Vector search is not enabled.")
	case space == SpaceServer && s.Embedder == nil:
		return 0, cairn.Errorf(cairn.EUNPROCESSABLE, "No embedder is configured: there is no space server.").With("field", "space")
	case space != SpaceHash && space != SpaceServer:
		return 0, invalid("space", "space must be hash-v1 or server: client vectors are re-sent with a new version.")
	}
	var keys []string
	if err := s.Store.MemoryKeys(ctx, agentID, "", func(k, _ string) bool { keys = append(keys, k); return true }); err != nil {
		return 0, err
	}
	if space == SpaceServer {
		for _, k := range keys {
			s.embedLater(agentID, k, true)
		}
		return len(keys), nil
	}
	now := s.now().Now()
	n := 0
	for _, k := range keys {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		unlock := s.lock(agentID, k)
		m, err := s.Store.MemoryByKey(ctx, agentID, k)
		if err == nil && !m.Expired(now) {
			if _, v, err := s.Store.MemoryByVersionID(ctx, agentID, m.LatestID); err == nil {
				var content []byte
				if indexable(v) {
					content, _ = s.content(ctx, m, v)
				}
				s.putVectors(m, v, content, true)
				n++
			}
		}
		unlock()
	}
	return n, nil
}
