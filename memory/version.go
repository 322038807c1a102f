package memory

import (
	"context"
	"strings"
	"time"

	"github.com/cairn-dev/cairn"
)

// NewVersion makes version N+1 of the memory that holds version id (any of
// its versions), N being the latest. The body may change, besides the
// content: importance, metadata, expiresIn (counted from now), mimeType,
// the encryption fields and the custom blob name; type and key may be
// given only with their current values. ifMatch, when not nil,
// must accept N (the If-Match condition), else EPRECONDITION.
func (s *Service) NewVersion(ctx context.Context, agentID, id string, ifMatch func(latest int) bool, w *Write) (*View, error) {
	peek, _, err := s.Store.MemoryByVersionID(ctx, agentID, id)
	if err != nil {
		return nil, err
	}
	unlock := s.lock(agentID, peek.Key)
	defer unlock()
	old, _, err := s.Store.MemoryByVersionID(ctx, agentID, id)
	if err != nil {
		return nil, err
	}
	now := s.now().Now()
	if old.Expired(now) {
		return nil, memExpired(old)
	}
	if w.Type != "" && w.Type != old.Type {
		return nil, invalid("type", "type is %q and cannot change; leave it out, or create a new memory for another type.", old.Type)
	}
	if w.Key != "" && w.Key != old.Key {
		return nil, invalid("key", "key is %q and cannot change; leave it out, or create a new memory under another key.", old.Key)
	}
	if ifMatch != nil && !ifMatch(old.Latest) {
		return nil, preconditionFailed(old.Latest)
	}
	m := *old
	m.UpdatedAt = now
	c, err := s.check(w, &m, now)
	if err != nil {
		return nil, err
	}
	if old.Visibility != "share" && m.Visibility == "share" {
		if err := s.screenStored(ctx, &m); err != nil { // they become shared content too
			return nil, err
		}
	}
	return s.writeVersion(ctx, &m, old, cairn.NewID(), old.Latest+1, w, c)
}

func memNotFound() error { return cairn.Errorf(cairn.ENOTFOUND, "Memory not found.") }

// memExpired is the answer for a memory whose time to live has passed
// and that the sweeper has not removed yet: still a 404, with its own code.
func memExpired(m *cairn.Memory) error {
	at := m.ExpiresAt.UTC().Format("2006-01-02T15:04:05.000Z")
	return cairn.Errorf(cairn.EEXPIRED, "Memory %q expired at %s and is being removed; its key is free: store it again with POST /v1/memory "+
		"(give expiresIn, or none to keep it forever, or pin it).", m.Key, at).With("expiresAt", at).With("key", m.Key)
}

// expiresBefore reports whether expiry a comes before b (zero: never).
func expiresBefore(a, b time.Time) bool {
	switch {
	case a.IsZero():
		return false
	case b.IsZero():
		return true
	}
	return a.Before(b)
}

// syncBlobExpiry gives every stored version's blob the memory's expiry,
// without rewriting any content. A version whose blob is already gone
// fails it (ENOTFOUND, as for an expired memory).
func (s *Service) syncBlobExpiry(ctx context.Context, m *cairn.Memory) error {
	vs, err := s.Store.MemoryVersions(ctx, m.AgentID, m.ID)
	if cairn.IsCode(err, cairn.ENOTFOUND) {
		return nil // a new memory: nothing stored yet
	} else if err != nil {
		return err
	}
	for _, v := range vs {
		if v.Inlined {
			continue // expires with its record
		}
		err := s.Blobs.ExtendExpiry(ctx, blobPath(m.AgentID, &v), blobExpiry(m))
		switch {
		case cairn.IsCode(err, cairn.ENOTFOUND):
			// The content expired (or is gone) just before: extending the
			// record would leave a memory that cannot be read.
			return memNotFound()
		case err != nil:
			return cairn.Upstream(err, blobFailed, blobKeep...)
		}
	}
	return nil
}

// screenStored screens the stored, unencrypted versions of a memory about
// to become shared, as a shared write is screened (422).
func (s *Service) screenStored(ctx context.Context, m *cairn.Memory) error {
	if s.Secrets == nil {
		return nil
	}
	vs, err := s.Store.MemoryVersions(ctx, m.AgentID, m.ID)
	if err != nil {
		return err
	}
	for i := range vs {
		if vs[i].EncryptionProvider != nil {
			continue
		}
		content, err := s.content(ctx, m, &vs[i])
		if err != nil {
			return err
		}
		rules, err := s.Secrets.Find(string(content))
		if err != nil {
			return err
		}
		if len(rules) > 0 {
			return cairn.Errorf(cairn.EUNPROCESSABLE, "Version %d contains credentials (%s: %s); it would become shared content. Delete that version or keep the memory private.",
				vs[i].Version, kinds(len(rules)), strings.Join(rules, ", ")).With("rules", rules).With("version", vs[i].Version)
		}
	}
	return nil
}
