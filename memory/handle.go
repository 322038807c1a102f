package memory

import (
	"context"

	"github.com/cairn-dev/cairn"
)

// A memory has two handles besides the id of each version: its key, and
// its memoryId (the id its first version had). lookup resolves an id that
// is either: a version id gives that version; the memoryId of a memory
// whose first version was deleted gives the memory and a nil version.
func (s *Service) lookup(ctx context.Context, agentID, id string) (*cairn.Memory, *cairn.MemoryVersion, error) {
	m, v, err := s.Store.MemoryByVersionID(ctx, agentID, id)
	if !cairn.IsCode(err, cairn.ENOTFOUND) {
		return m, v, err
	}
	vs, verr := s.Store.MemoryVersions(ctx, agentID, id)
	if verr != nil || len(vs) == 0 {
		return nil, nil, err
	}
	m, _, merr := s.Store.MemoryByVersionID(ctx, agentID, vs[0].ID)
	if merr != nil || m.ID != id {
		return nil, nil, err
	}
	return m, nil, nil
}

// versionGone is the answer for the memoryId of a memory that lives on
// although its first version, which that id also names, was deleted.
func versionGone(m *cairn.Memory) error {
	return cairn.Errorf(cairn.ENOTFOUND, "Version 1 of memory %q was deleted, so this id no longer reads a version; the memory lives on "+
		"at version %d: read it with GET /v1/memory/by-key?key=%s or GET /v1/memory/%s.", m.Key, m.Latest, m.Key, m.LatestID).
		With("memoryId", m.ID).With("key", m.Key).With("latestId", m.LatestID).With("latestVersion", m.Latest)
}

// GetByKey returns the latest version of the agent's memory with the key
// and, when withContent, its content.
func (s *Service) GetByKey(ctx context.Context, agentID, key string, withContent bool, reqID string) (*View, error) {
	if err := checkKey(key); err != nil {
		return nil, err
	}
	m, err := s.Store.MemoryByKey(ctx, agentID, key)
	if cairn.IsCode(err, cairn.ENOTFOUND) {
		return nil, cairn.Errorf(cairn.ENOTFOUND, "No memory has the key %q; store one with POST /v1/memory.", key).With("key", key)
	} else if err != nil {
		return nil, err
	}
	if m.Expired(s.now().Now()) {
		return nil, memExpired(m)
	}
	return s.Get(ctx, agentID, m.LatestID, withContent, reqID)
}

// DeleteMemory removes the memory holding id (any version's id, or its
// memoryId) with every version and blob, oldest version first, each with
// its audit entry. ifMatch, when not nil, must accept the latest version
// number, else EPRECONDITION. It returns the memory as it was and the
// versions removed, newest first. A failure part way leaves the newest
// versions, the memory still readable; the same request again finishes it.
func (s *Service) DeleteMemory(ctx context.Context, agentID, id string, ifMatch func(latest int) bool, reqID string) (*cairn.Memory, []cairn.MemoryVersion, error) {
	peek, _, err := s.lookup(ctx, agentID, id)
	if err != nil {
		return nil, nil, err
	}
	unlock := s.lock(agentID, peek.Key)
	defer unlock()
	m, err := s.Store.MemoryByKey(ctx, agentID, peek.Key)
	if err != nil || m.ID != peek.ID {
		return nil, nil, memNotFound() // deleted (and perhaps replaced) meanwhile
	}
	if m.Expired(s.now().Now()) {
		return nil, nil, memExpired(m)
	}
	if ifMatch != nil && !ifMatch(m.Latest) {
		return nil, nil, preconditionFailed(m.Latest)
	}
	vs, err := s.Store.MemoryVersions(ctx, agentID, m.ID)
	if err != nil {
		return nil, nil, err
	}
	for i := len(vs) - 1; i >= 0; i-- { // oldest first: the latest goes last
		audit := auditEntry(agentID, cairn.AuditDelete, vs[i].ID, reqID, map[string]any{"key": m.Key, "scope": "memory"})
		if _, _, err := s.Store.DeleteMemoryVersion(ctx, agentID, vs[i].ID, audit); err != nil {
			return nil, nil, err
		}
		s.deleteBlob(ctx, agentID, &vs[i])
	}
	s.unindex(agentID, m.Key)
	return m, vs, nil
}

// preconditionFailed is the answer to an If-Match the latest version
// number does not satisfy.
func preconditionFailed(latest int) error {
	return cairn.Errorf(cairn.EPRECONDITION, "If-Match does not match: the latest version is %d. Nothing was written, and the charge stands (as for a 409); "+
		"read the latest version (GET /v1/memory/{id}) and send If-Match with its number to retry.", latest).With("version", latest)
}

// keyInUse is the 409 of a create whose key an existing memory holds.
func keyInUse(m *cairn.Memory) error {
	return cairn.Errorf(cairn.ECONFLICT, "Key %q is already in use by memory %s (latest version %d); to store a new version, "+
		"PUT /v1/memory/%s with the content (If-Match: \"%d\" makes it conditional), or read it with GET /v1/memory/by-key?key=%s.",
		m.Key, m.ID, m.Latest, m.LatestID, m.Latest, m.Key).
		With("key", m.Key).With("memoryId", m.ID).With("latestId", m.LatestID).With("latestVersion", m.Latest)
}

// GetShared returns, for another agent of the same developer (the caller
// checked that), a version of owner's memory (id a version's id, or "" with
// key for the latest version of the memory with the key) when the memory
// is shared (visibility share); any other memory is ENOTFOUND, exactly as
// an unknown one. The read is logged in the owner's audit log.
func (s *Service) GetShared(ctx context.Context, ownerID, id, key, reqID string) (*View, error) {
	var m *cairn.Memory
	var err error
	if id == "" {
		if err = checkKey(key); err != nil {
			return nil, err
		}
		if m, err = s.Store.MemoryByKey(ctx, ownerID, key); err == nil {
			id = m.LatestID
		}
	} else {
		m, _, err = s.lookup(ctx, ownerID, id)
	}
	if cairn.IsCode(err, cairn.ENOTFOUND) || err == nil && m.Visibility != "share" {
		return nil, cairn.Errorf(cairn.ENOTFOUND, "No shared memory with this id or key: another agent's memories are readable only when "+
			"their visibility is share.")
	} else if err != nil {
		return nil, err
	}
	return s.Get(ctx, ownerID, id, true, reqID)
}
