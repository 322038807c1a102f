package api

import (
	"strconv"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/memory"
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
}

func (r *memoryRequest) write(c *gin.Context) *memory.Write {
	return &memory.Write{Type: r.Type, Key: r.Key, Content: r.Content, ContentEncoding: r.ContentEncoding,
		Importance: r.Importance, ExpiresIn: r.ExpiresIn, Metadata: r.Metadata, BlobFilename: r.BlobFilename,
		BlobExtension: r.BlobExtension, MimeType: r.MimeType, EncProvider: r.EncryptionProvider,
		EncMeta: r.EncryptionMeta, Embedding: r.Embedding, RequestID: requestID(c)}
}

// memoryJSON is a memory version as the API shows it; Content and
// ContentEncoding only on GET /v1/memory/:id.
type memoryJSON struct {
	ID                 string          `json:"id"`
	MemoryID           string          `json:"memoryId"`
	Type               string          `json:"type"`
	Key                string          `json:"key"`
	Content            *string         `json:"content,omitempty"`
	ContentEncoding    string          `json:"contentEncoding,omitempty"`
	Version            int             `json:"version"`
	IsLatest           bool            `json:"isLatest"`
	Pinned             bool            `json:"pinned"`
	Importance         float64         `json:"importance"`
	IsCompressed       bool            `json:"isCompressed"`
	SizeBytes          int64           `json:"sizeBytes"`
	StoredBytes        int64           `json:"storedBytes,omitempty"`
	MimeType           *string         `json:"mimeType"`
	Filename           string          `json:"filename,omitempty"`
	BlobName           string          `json:"blobName"`
	Metadata           memory.Metadata `json:"metadata"`
	Visibility         string          `json:"visibility"`
	EncryptionProvider *string         `json:"encryptionProvider"`
	EncryptionMeta     map[string]any  `json:"encryptionMeta"`
	ExpiresAt          *string         `json:"expiresAt"`
	CreatedAt          string          `json:"createdAt"`
	UpdatedAt          string          `json:"updatedAt"`
}

func toMemoryJSON(v *memory.View, withContent bool) memoryJSON {
	m, ver := &v.Memory, &v.Version
	out := memoryJSON{ID: ver.ID, MemoryID: m.ID, Type: m.Type, Key: m.Key, Version: ver.Version, IsLatest: v.IsLatest(),
		Pinned: m.Pinned, Importance: m.Importance, IsCompressed: ver.IsCompressed, SizeBytes: ver.SizeBytes, StoredBytes: ver.StoredBytes,
		MimeType: ver.MimeType, Filename: ver.Filename, BlobName: ver.BlobName,
		Metadata: memory.Metadata{Tags: m.Tags, Visibility: m.Visibility}, Visibility: m.Visibility,
		EncryptionProvider: ver.EncryptionProvider, EncryptionMeta: ver.EncryptionMeta,
		ExpiresAt: optTime(m.ExpiresAt), CreatedAt: timestamp(m.CreatedAt), UpdatedAt: timestamp(m.UpdatedAt)}
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
