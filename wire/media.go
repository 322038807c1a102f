package wire

import "encoding/json"

// Media is a media file record.
type Media struct {
	ID          string  `json:"id"`
	Category    string  `json:"category"`
	Filename    string  `json:"filename"`
	BlobName    string  `json:"blobName"`
	MimeType    string  `json:"mimeType"`
	SizeBytes   int64   `json:"sizeBytes"`
	Title       *string `json:"title"`
	Description *string `json:"description"`
	// Metadata is the JSON object given at upload, as given (null when
	// none was).
	Metadata  json.RawMessage `json:"metadata"`
	Pinned    bool            `json:"pinned"`
	ExpiresAt Time            `json:"expiresAt"`
	CreatedAt Time            `json:"createdAt"`
}

// MediaPage is one page of listMedia.
type MediaPage struct {
	HasMore    bool    `json:"hasMore"`
	Limit      int     `json:"limit"`
	Media      []Media `json:"media"`
	NextCursor *string `json:"nextCursor"`
}

// MediaDeletion is the result of deleteMedia.
type MediaDeletion struct {
	Deleted bool   `json:"deleted"`
	ID      string `json:"id"`
}

// RenewMediaRequest is the body of renewMedia.
type RenewMediaRequest struct {
	ExpiresIn *string `json:"expiresIn"`
}
