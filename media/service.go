package media

import (
	"context"
	"log/slog"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
	"github.com/cairn-dev/cairn/internal/ttlcache"
	"github.com/cairn-dev/cairn/store"
)

// Limits and defaults (spec 8).
const (
	MaxFileSize = 10 << 20
	DefaultTTL  = "90d"
	MaxTitleLen = 500
	MaxDescLen  = 5000
)

// Service implements the media operations. Close stops its background
// work (the retried deletes of failed uploads' blobs).
type Service struct {
	Store store.Media
	Blobs blob.Store
	Clock cairn.Clock
	// RecordCacheTTL is how long a media record read is remembered, so
	// that a stream or a Range read does not read the store again; 0: not
	// at all. Records never change; a delete through this Service drops
	// its record at once, and one made by another instance sharing the
	// store is seen within RecordCacheTTL (a stream of it then finds its
	// blob gone, reads the store again and answers 404).
	RecordCacheTTL time.Duration
	// Logger takes the warnings of blobs of failed uploads that could not
	// be deleted (nil: none are written).
	Logger *slog.Logger

	cache   ttlcache.Lazy[string, cairn.Media]
	orphans orphans // the retried deletes of failed uploads' blobs
}

// maxRecordCache bounds the records the cache holds.
const maxRecordCache = 100_000

// records returns the record cache, nil when RecordCacheTTL is 0.
func (s *Service) records() *ttlcache.Cache[string, cairn.Media] {
	return s.cache.Of(s.RecordCacheTTL, maxRecordCache)
}

// forget drops the cached record (after its delete).
func (s *Service) forget(agentID, id string) {
	k := agentID + "/" + id
	s.records().Drop(func(key string, _ cairn.Media) bool { return key == k })
}

// keepCodes are the codes of the blob store's errors that media passes on
// as they are: every one the store chose for the client (EINVALID,
// ETOOLARGE, ENOTFOUND, ERANGE...); other failures are EUPSTREAM.
var keepCodes = []string{cairn.EINVALID, cairn.EUNAUTHORIZED, cairn.EPAYMENT, cairn.EFORBIDDEN, cairn.ENOTFOUND,
	cairn.EMETHOD, cairn.ECONFLICT, cairn.EALREADYCREDITED, cairn.EPENDING, cairn.EPRECONDITION, cairn.ETOOLARGE,
	cairn.EUNSUPPORTEDMEDIA, cairn.ERANGE, cairn.EUNPROCESSABLE, cairn.ERATELIMIT, cairn.EUNAVAILABLE}

// Get returns the agent's media; unknown, malformed, another agent's and
// expired ids are all ENOTFOUND.
func (s *Service) Get(ctx context.Context, agentID, id string) (*cairn.Media, error) {
	if !cairn.ValidID(id) {
		return nil, cairn.Errorf(cairn.ENOTFOUND, "Media not found.")
	}
	m, _, err := s.get(ctx, agentID, id, true)
	return m, err
}

// get reads the record, through the cache when cached is true; fromCache
// tells whether it came from there.
func (s *Service) get(ctx context.Context, agentID, id string, cached bool) (m *cairn.Media, fromCache bool, err error) {
	now := s.Clock.Now()
	c, k := s.records(), agentID+"/"+id
	var epoch uint64
	if c != nil && cached {
		var hit cairn.Media
		var ok bool
		if hit, ok, epoch = c.Get(k, now); ok {
			m, fromCache = &hit, true
		}
	}
	if m == nil {
		if m, err = s.Store.GetMedia(ctx, agentID, id); err != nil {
			return nil, false, err
		}
		if c != nil && cached {
			c.Put(k, *m, epoch, now)
		}
	}
	if m.Expired(now) {
		return nil, false, cairn.Errorf(cairn.ENOTFOUND, "Media not found.")
	}
	return m, fromCache, nil
}

// Open returns the media record with a seekable reader over its bytes. A
// blob that cannot be read (missing, corrupt, store down) is EUPSTREAM.
func (s *Service) Open(ctx context.Context, agentID, id string) (*cairn.Media, blob.ReadSeekCloser, error) {
	if !cairn.ValidID(id) {
		return nil, nil, cairn.Errorf(cairn.ENOTFOUND, "Media not found.")
	}
	m, fromCache, err := s.get(ctx, agentID, id, true)
	if err != nil {
		return nil, nil, err
	}
	rc, _, err := s.Blobs.Open(ctx, m.StorageName())
	if err != nil && fromCache {
		// The record may have been deleted elsewhere since it was cached:
		// the store decides.
		s.forget(agentID, id)
		if m, _, err = s.get(ctx, agentID, id, false); err != nil {
			return nil, nil, err
		}
		rc, _, err = s.Blobs.Open(ctx, m.StorageName())
	}
	if err != nil {
		if cairn.IsCode(err, cairn.ENOTFOUND) {
			return nil, nil, cairn.Errorf(cairn.EUPSTREAM, "The file is missing from the storage network.")
		}
		return nil, nil, cairn.Upstream(err, "Reading the file from the storage network failed.", keepCodes...)
	}
	return m, rc, nil
}

// Delete removes the record (with its audit entry), then the blob; a blob
// that already expired or vanished is no error.
func (s *Service) Delete(ctx context.Context, agentID, id, requestID string) (*cairn.Media, error) {
	if !cairn.ValidID(id) {
		return nil, cairn.Errorf(cairn.ENOTFOUND, "Media not found.")
	}
	audit := &cairn.AuditEntry{AgentID: agentID, Action: cairn.AuditDelete, Resource: id,
		Detail: map[string]any{"kind": "media"}, RequestID: requestID, CreatedAt: s.Clock.Now()}
	m, err := s.Store.DeleteMedia(ctx, agentID, id, audit)
	s.forget(agentID, id) // also after a failure: the commit may have happened
	if err != nil {
		return nil, err
	}
	// The record is gone, so the delete succeeded. A blob the store could
	// not remove carries the same expiry and the blob sweep removes it then.
	_ = s.Blobs.Delete(context.WithoutCancel(ctx), m.StorageName())
	return m, nil
}
