package memory

import (
	"context"
	"io"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

// Get returns the version with the id and, when withContent, its original
// content. An expired memory is ENOTFOUND even before the sweep.
func (s *Service) Get(ctx context.Context, agentID, id string, withContent bool, reqID string) (*View, error) {
	now := s.now().Now()
	m, v, logged, err := s.readLogged(ctx, agentID, id, now, reqID)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, versionGone(m)
	}
	if m.Expired(now) {
		return nil, memExpired(m)
	}
	view := &View{Memory: *m, Version: *v}
	if withContent {
		if view.Content, err = s.content(ctx, m, v); err != nil {
			return nil, err
		}
	}
	if logged {
		return view, nil
	}
	if err := s.audit(ctx, agentID, cairn.AuditRead, v.ID, reqID, map[string]any{"key": m.Key, "version": v.Version}); err != nil {
		return nil, err
	}
	return view, nil
}

// readLogged is lookup that, when the store reads and logs in one step
// (store.MemoryReadLog) and the id is a version's, also logs the read as
// Get does; logged reports whether it did (then the content, inlined, is
// in the version read).
func (s *Service) readLogged(ctx context.Context, agentID, id string, now time.Time, reqID string) (*cairn.Memory, *cairn.MemoryVersion, bool, error) {
	if rl, ok := store.ReadLogOf(s.Store); ok {
		e := &cairn.AuditEntry{AgentID: agentID, Action: cairn.AuditRead, RequestID: reqID}
		m, v, logged, err := rl.ReadMemoryVersion(ctx, agentID, id, now, e)
		if !cairn.IsCode(err, cairn.ENOTFOUND) {
			return m, v, logged, err
		}
	}
	m, v, err := s.lookup(ctx, agentID, id)
	return m, v, false, err
}

// content reads and decompresses a version's content: its blob, or the
// bytes inlined in its record. A blob the store cannot
// give back is EUPSTREAM: the record exists, so its content must too.
func (s *Service) content(ctx context.Context, m *cairn.Memory, v *cairn.MemoryVersion) ([]byte, error) {
	if v.Inlined {
		return decompress(v.Inline, v.IsCompressed)
	}
	rc, _, err := s.Blobs.Get(ctx, blobPath(m.AgentID, v), 0, -1)
	if err != nil {
		if cairn.IsCode(err, cairn.ENOTFOUND) {
			return nil, cairn.Errorf(cairn.EUPSTREAM, "The content of this memory could not be read from the blob store.")
		}
		return nil, cairn.Upstream(err, blobFailed, blobKeep...)
	}
	defer rc.Close()
	stored, err := io.ReadAll(io.LimitReader(rc, maxDecompressed))
	if err != nil {
		return nil, cairn.Errorf(cairn.EUPSTREAM, "Reading the content from the blob store failed.")
	}
	return decompress(stored, v.IsCompressed)
}

// History is a memory's stored versions, newest first.
type History struct {
	Memory   cairn.Memory
	Versions []cairn.MemoryVersion
}

// History returns the versions of the memory holding version id.
func (s *Service) History(ctx context.Context, agentID, id, reqID string) (*History, error) {
	m, _, err := s.lookup(ctx, agentID, id)
	if err != nil {
		return nil, err
	}
	if m.Expired(s.now().Now()) {
		return nil, memExpired(m)
	}
	vs, err := s.Store.MemoryVersions(ctx, agentID, m.ID)
	if err != nil {
		return nil, err
	}
	if err := s.audit(ctx, agentID, cairn.AuditRead, id, reqID, map[string]any{"key": m.Key, "history": true}); err != nil {
		return nil, err
	}
	return &History{Memory: *m, Versions: vs}, nil
}

// List returns a page of the agent's memories; expired ones never appear.
func (s *Service) List(ctx context.Context, agentID string, q cairn.MemoryQuery, reqID string) (*cairn.MemoryPage, error) {
	q.Filter.Now = s.now().Now()
	p, err := s.Store.ListMemories(ctx, agentID, q)
	if err != nil {
		return nil, err
	}
	if err := s.audit(ctx, agentID, cairn.AuditList, "", reqID, map[string]any{"count": len(p.Items)}); err != nil {
		return nil, err
	}
	return p, nil
}
