package memory

import (
	"cmp"
	"context"
	"hash/maphash"
	"sync"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
	"github.com/cairn-dev/cairn/memory/vector"
	"github.com/cairn-dev/cairn/store"
)

// Limits of spec 8 that belong to memories.
const (
	MaxFileSize  = 10 << 20 // upload
	MaxBulkWrite = 20
	MaxBulkDel   = 50
	MaxRenewIDs  = 50
	MaxTags      = 32
	MaxTagLen    = 64
	// DefaultImportance is the importance of a memory stored without one
	// (a file upload response carries 0.5 in the spec).
	DefaultImportance = 0.5
	// UploadTTL is the default expiresIn of an upload.
	UploadTTL = "30d"
)

// Service runs every memory operation. Store, Blobs and Audit are
// required; Index (key and full-text search), Vectors and Secrets may be
// nil, which disables content search (unless the Store searches itself:
// store.MemorySearch), vector search and credential screening
// respectively.
type Service struct {
	Store   store.Memories
	Audit   store.Audit
	Blobs   blob.Store
	Index   *Index
	Vectors *vector.Index // nil disables vector search
	// Embedder, when set, embeds plain-text memories in the space
	// "server" in the background (RunEmbedder) and text queries with it.
	Embedder *Embedder
	Secrets  *Secrets
	Clock    cairn.Clock
	// InlineBytes is the largest stored content (after compression) kept
	// in the version's record instead of a blob of its own: 0 means
	// MaxInline, a negative value none (every version has a blob).
	InlineBytes int

	initOnce sync.Once
	seed     maphash.Seed
	locks    [256]sync.Mutex

	embedOnce sync.Once
	embeds    *embedQueue
}

// View is a memory as read: its head, one version and, when read with
// content, the original content bytes.
type View struct {
	Memory  cairn.Memory
	Version cairn.MemoryVersion
	Content []byte
}

// IsLatest reports whether the view's version is the memory's latest.
func (v *View) IsLatest() bool { return v.Version.Version == v.Memory.Latest }

func (s *Service) now() cairn.Clock {
	if s.Clock == nil {
		return cairn.SystemClock{}
	}
	return s.Clock
}

// lock serializes the writes of one memory key of one agent, from the blob
// write to the commit (and from a delete's commit to the blob removal), so
// that no two writers ever share a blob name.
func (s *Service) lock(agent, key string) func() {
	s.initOnce.Do(func() { s.seed = maphash.MakeSeed() })
	m := &s.locks[maphash.String(s.seed, agent+"\x00"+key)%uint64(len(s.locks))]
	m.Lock()
	return m.Unlock
}

// blobKey is the blob store name of a new version's content:
// agents/{agentId}/v/{versionId}. The version id is new for each write, so
// no other agent, memory, version or retried write can hold that name, and
// blobs are created, never replaced.
func blobKey(agentID, versionID string) string { return "agents/" + agentID + "/v/" + versionID }

// blobPath is where the content of version v of the agent's memory lives:
// its BlobKey, or for a version written before BlobKey existed, the spec's
// blob name under the agent's own folder.
func blobPath(agentID string, v *cairn.MemoryVersion) string {
	if v.BlobKey != "" {
		return v.BlobKey
	}
	return "agents/" + agentID + "/" + v.BlobName
}

// MaxInline is the default InlineBytes: a write of content this short is
// one commit of the store, with no blob file to write and sync first.
const MaxInline = 8 << 10

// inlines reports whether stored content of n bytes goes into the record.
func (s *Service) inlines(n int) bool {
	return s.InlineBytes >= 0 && n <= cmp.Or(s.InlineBytes, MaxInline)
}

// deleteBlob removes the blob of a removed version, if it has one. A
// failure is left to the blob sweep (the blob has the memory's expiry).
func (s *Service) deleteBlob(ctx context.Context, agentID string, v *cairn.MemoryVersion) {
	if !v.Inlined {
		_ = s.Blobs.Delete(ctx, blobPath(agentID, v))
	}
}

// audit logs a read, list or search. Writes log theirs in their own
// commit; these entries are not synced on their own (see LogMemoryRead).
func (s *Service) audit(ctx context.Context, agent, action, resource, reqID string, detail map[string]any) error {
	return s.Store.LogMemoryRead(ctx, &cairn.AuditEntry{AgentID: agent, Action: action, Resource: resource,
		Detail: detail, RequestID: reqID})
}

func auditEntry(agent, action, resource, reqID string, detail map[string]any) *cairn.AuditEntry {
	return &cairn.AuditEntry{AgentID: agent, Action: action, Resource: resource, Detail: detail, RequestID: reqID}
}

// blobExpiry is the expiry a memory's blobs carry: none when pinned.
func blobExpiry(m *cairn.Memory) (t time.Time) {
	if m.Pinned {
		return t
	}
	return m.ExpiresAt
}
