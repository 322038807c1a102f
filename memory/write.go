package memory

import (
	"bytes"
	"context"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

// Metadata is the client's metadata of a memory.
type Metadata struct {
	Tags       []string `json:"tags"`
	Visibility string   `json:"visibility"`
}

// Write is a create (POST, upload, bulk) or a new version (PUT). On a new
// version, fields left nil keep the memory's values.
type Write struct {
	Type, Key       string
	Content         *string // text, or base64 when ContentEncoding is "base64"
	ContentEncoding string
	Raw             []byte // upload bytes; used instead of Content when not nil
	Importance      *float64
	ExpiresIn       *string
	Metadata        *Metadata
	BlobFilename    string
	BlobExtension   string
	MimeType        *string
	Filename        string
	EncProvider     *string
	EncMeta         map[string]any
	Embedding       *cairn.Embedding // the client's vector of this version
	Action          string           // cairn.AuditWrite (default) or cairn.AuditUpload
	RequestID       string
	// Replay, when set, renders the idempotency record of the request from
	// the view about to be committed; the record is committed with the
	// version, so that an acknowledged write always has it.
	Replay func(v *View) (*cairn.IdempotencyRecord, error)
}

// Create stores version 1 of a new memory: a long content's blob first,
// then the record (with a short content in it), its indexes and the audit
// entry in one commit. A crash in between leaves at most an unreferenced
// blob.
func (s *Service) Create(ctx context.Context, agentID string, w *Write) (*View, error) {
	if err := checkName(w); err != nil {
		return nil, err
	}
	now := s.now().Now()
	id := cairn.NewID()
	m := &cairn.Memory{ID: id, AgentID: agentID, Type: w.Type, Key: w.Key, Importance: DefaultImportance,
		CreatedAt: now, UpdatedAt: now}
	c, err := s.check(w, m, now)
	if err != nil {
		return nil, err
	}
	unlock := s.lock(agentID, w.Key)
	defer unlock()
	if old, err := s.Store.MemoryByKey(ctx, agentID, w.Key); err == nil {
		if !old.Expired(now) {
			return nil, keyInUse(old)
		}
		// Expired but not swept yet: it is gone for the client, so its key
		// is free; remove it now as the sweeper would.
		if err := s.removeExpired(ctx, old); err != nil {
			return nil, err
		}
	} else if !cairn.IsCode(err, cairn.ENOTFOUND) {
		return nil, err
	}
	return s.writeVersion(ctx, m, nil, id, 1, w, c)
}

// writeVersion stores the blob of w's checked content and commits version
// ver of m (old is the stored head, nil on create). The caller holds the
// memory's lock.
func (s *Service) writeVersion(ctx context.Context, m, old *cairn.Memory, vid string, ver int, w *Write, c checked) (*View, error) {
	if err := s.reserveSpace(m.AgentID, w.Embedding); err != nil {
		return nil, err
	}
	content, enc := c.content, c.encoding
	stored, packed := compress(content)
	v := &cairn.MemoryVersion{ID: vid, MemoryID: m.ID, Version: ver, IsCompressed: packed, ContentEncoding: enc,
		MimeType: w.MimeType, Filename: w.Filename, EncryptionProvider: w.EncProvider, EncryptionMeta: w.EncMeta,
		BlobFilename: w.BlobFilename, BlobExtension: w.BlobExtension, CreatedAt: m.UpdatedAt,
		BlobName: BlobName(m.Type, m.Key, ver, w.BlobFilename, w.BlobExtension), BlobKey: blobKey(m.AgentID, vid),
		Embedding: w.Embedding}
	if old != nil && (w.BlobFilename != "" || w.BlobExtension != "") {
		// Custom names of two versions can spell one name (x_v1 + "1" is
		// x_v11 + ""): never overwrite another version's blob.
		vs, err := s.Store.MemoryVersions(ctx, m.AgentID, m.ID)
		if err != nil {
			return nil, err
		}
		for i := range vs {
			if vs[i].BlobName == v.BlobName {
				return nil, cairn.Errorf(cairn.ECONFLICT, "Blob name %q is used by version %d; choose another blobFilename or blobExtension.",
					v.BlobName, vs[i].Version).With("field", "blobFilename")
			}
		}
	}
	ct := "application/octet-stream"
	if w.MimeType != nil && *w.MimeType != "" {
		ct = *w.MimeType
	}
	v.SizeBytes, v.StoredBytes = int64(len(content)), int64(len(stored))
	if s.inlines(len(stored)) {
		v.Inlined, v.Inline = true, stored
	} else {
		info, err := s.Blobs.Put(ctx, blobPath(m.AgentID, v), bytes.NewReader(stored),
			blob.PutOptions{ContentType: ct, ExpiresAt: blobExpiry(m)})
		if err != nil {
			return nil, cairn.Upstream(err, blobFailed, blobKeep...)
		}
		v.StoredBytes = info.Size
	}
	extend := old != nil && !blobExpiry(m).Equal(blobExpiry(old))
	if extend && !expiresBefore(blobExpiry(m), blobExpiry(old)) {
		if err := s.syncBlobExpiry(ctx, m); err != nil { // longer first: never a record outliving its blobs
			return nil, err
		}
	}
	action := w.Action
	if action == "" {
		action = cairn.AuditWrite
	}
	audit := auditEntry(m.AgentID, action, v.ID, w.RequestID, map[string]any{"key": m.Key, "version": ver})
	var idem *cairn.IdempotencyRecord
	var err error
	if w.Replay != nil {
		// The view as the commit leaves it (the head it writes).
		pm, pv, prior := *m, *v, 0
		if old != nil {
			prior = old.Versions
		}
		pm.AddVersion(&pv, prior)
		if idem, err = w.Replay(&View{Memory: pm, Version: pv, Content: content}); err != nil {
			return nil, err
		}
	}
	s.setSearchText(v, content)
	err = s.Store.CreateMemoryVersion(ctx, m, v, audit, idem)
	v.SearchText = nil
	if err != nil {
		return nil, err
	}
	if extend && expiresBefore(blobExpiry(m), blobExpiry(old)) {
		_ = s.syncBlobExpiry(ctx, m) // shorter after the commit; the sweeper removes them anyway
	}
	s.Index.put(m, v, content)
	s.putVectors(m, v, content, true)
	return &View{Memory: *m, Version: *v, Content: content}, nil
}

// blobFailed is the message of a blob store failure (502); blobKeep are
// the codes of the blob store's errors memory passes on as they are (its
// client errors and its own 502), see cairn.Upstream.
const blobFailed = "The blob store failed."

var blobKeep = []string{cairn.EINVALID, cairn.ETOOLARGE, cairn.EUPSTREAM}
