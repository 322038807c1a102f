package cairn

import "time"

// Media categories, chosen from the MIME type.
const (
	MediaPhoto    = "photo"
	MediaVideo    = "video"
	MediaAudio    = "audio"
	MediaDocument = "document"
)

// Media is a media file of an agent: the record; its bytes are a blob.
type Media struct {
	ID       string `json:"id"`
	AgentID  string `json:"agentId"`
	Category string `json:"category"`
	Filename string `json:"filename"`
	BlobName string `json:"blobName"` // the name shown (spec 2.2); not unique across agents
	// BlobKey is the name the bytes are stored under, unique to the agent
	// and the media (empty on records made before it existed: BlobName).
	BlobKey     string         `json:"blobKey,omitempty"`
	MimeType    string         `json:"mimeType"`
	SizeBytes   int64          `json:"sizeBytes"`
	SHA256      string         `json:"sha256"`
	Title       *string        `json:"title,omitempty"`
	Description *string        `json:"description,omitempty"`
	Metadata    map[string]any `json:"metadata,omitempty"`
	Pinned      bool           `json:"pinned"`
	ExpiresAt   time.Time      `json:"expiresAt"`
	CreatedAt   time.Time      `json:"createdAt"`
}

// StorageName is the blob name the media's bytes are stored under.
func (m *Media) StorageName() string {
	if m.BlobKey != "" {
		return m.BlobKey
	}
	return m.BlobName
}

// Expired reports whether the media is past its expiry at now. Pinned
// media never expires.
func (m *Media) Expired(now time.Time) bool {
	return !m.Pinned && !m.ExpiresAt.IsZero() && !now.Before(m.ExpiresAt)
}

// MediaFilter narrows a media listing.
type MediaFilter struct {
	Category string // "" for all
}
