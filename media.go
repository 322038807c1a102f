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
	ID          string         `json:"id"`
	AgentID     string         `json:"agentId"`
	Category    string         `json:"category"`
	Filename    string         `json:"filename"`
	BlobName    string         `json:"blobName"`
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

// Expired reports whether the media is past its expiry at now. Pinned
// media never expires.
func (m *Media) Expired(now time.Time) bool {
	return !m.Pinned && !m.ExpiresAt.IsZero() && !now.Before(m.ExpiresAt)
}
