package api

import (
	"encoding/json"
	"strconv"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/memory"
	"github.com/cairn-dev/cairn/wire"
	"github.com/gin-gonic/gin"
)

// memoryRequest is the body of POST and PUT /v1/memory and of a bulk item.
type memoryRequest struct {
	Type               string           `json:"type"`
	Key                string           `json:"key"`
	Content            *string          `json:"content"`
	ContentEncoding    string           `json:"contentEncoding"`
	Importance         *float64         `json:"importance"`
	ExpiresIn          *string          `json:"expiresIn"`
	Metadata           *memory.Metadata `json:"metadata"`
	BlobFilename       string           `json:"blobFilename"`
	BlobExtension      string           `json:"blobExtension"`
	MimeType           *string          `json:"mimeType"`
	EncryptionProvider *string          `json:"encryptionProvider"`
	EncryptionMeta     map[string]any   `json:"encryptionMeta"`
	Embedding          *cairn.Embedding `json:"embedding"`
	// Visibility is metadata.visibility, as records show it at the top
	// level too; given both, they must agree.
	Visibility *string `json:"visibility"`
}

func (r *memoryRequest) write(c *gin.Context) (*memory.Write, error) {
	md := r.Metadata
	if v := r.Visibility; v != nil {
		switch {
		case md == nil:
			md = &memory.Metadata{Visibility: *v}
		case md.Visibility == "":
			md.Visibility = *v
		case md.Visibility != *v:
			return nil, cairn.Errorf(cairn.EINVALID, "visibility %q and metadata.visibility %q differ; give one of them.", *v, md.Visibility).With("field", "visibility")
		}
	}
	return &memory.Write{Type: r.Type, Key: r.Key, Content: r.Content, ContentEncoding: r.ContentEncoding,
		Importance: r.Importance, ExpiresIn: r.ExpiresIn, Metadata: md, BlobFilename: r.BlobFilename,
		BlobExtension: r.BlobExtension, MimeType: r.MimeType, EncProvider: r.EncryptionProvider,
		EncMeta: r.EncryptionMeta, Embedding: r.Embedding, RequestID: requestID(c)}, nil
}

// memoryPutRequest is the body of PUT /v1/memory/:id as strictBody checks
// it: a memoryRequest, or the record a read returned with new content (a
// round trip), whose read-only members are taken and ignored.
type memoryPutRequest struct {
	memoryRequest
	recordEcho
}

// recordEcho are the read-only members of a memory record.
type recordEcho struct {
	ID           json.RawMessage `json:"id"`
	MemoryID     json.RawMessage `json:"memoryId"`
	Version      json.RawMessage `json:"version"`
	IsLatest     json.RawMessage `json:"isLatest"`
	Pinned       json.RawMessage `json:"pinned"`
	IsCompressed json.RawMessage `json:"isCompressed"`
	SizeBytes    json.RawMessage `json:"sizeBytes"`
	StoredBytes  json.RawMessage `json:"storedBytes"`
	Filename     json.RawMessage `json:"filename"`
	BlobName     json.RawMessage `json:"blobName"`
	ExpiresAt    json.RawMessage `json:"expiresAt"`
	CreatedAt    json.RawMessage `json:"createdAt"`
	UpdatedAt    json.RawMessage `json:"updatedAt"`
}

// toMemoryJSON is a memory version as the API shows it; Content and
// ContentEncoding only on GET /v1/memory/:id.
func toMemoryJSON(v *memory.View, withContent bool) wire.Memory {
	m, ver := &v.Memory, &v.Version
	out := wire.Memory{ID: ver.ID, MemoryID: m.ID, Type: m.Type, Key: m.Key, Version: ver.Version, IsLatest: v.IsLatest(),
		Pinned: m.Pinned, Importance: m.Importance, IsCompressed: ver.IsCompressed, SizeBytes: ver.SizeBytes,
		MimeType: ver.MimeType, Filename: ver.Filename, BlobName: ver.BlobName,
		Metadata: wire.Metadata{Tags: m.Tags, Visibility: m.Visibility}, Visibility: m.Visibility,
		EncryptionProvider: ver.EncryptionProvider, EncryptionMeta: rawJSON(ver.EncryptionMeta),
		ExpiresAt: wire.OptAt(m.ExpiresAt), CreatedAt: wire.At(m.CreatedAt), UpdatedAt: wire.At(m.UpdatedAt)}
	if ver.StoredBytes != 0 {
		out.StoredBytes = &ver.StoredBytes
	}
	if out.Metadata.Tags == nil {
		out.Metadata.Tags = []string{}
	}
	if withContent {
		text := memory.EncodeContent(v.Content, ver.ContentEncoding)
		out.Content, out.ContentEncoding = &text, ver.ContentEncoding
	}
	return out
}

// etag is the entity tag of a memory: its latest version number.
func etag(c *gin.Context, latest int) { c.Header("ETag", etagValue(latest)) }

func etagValue(latest int) string { return `"` + strconv.Itoa(latest) + `"` }
