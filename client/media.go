package client

import (
	"context"
	"encoding/json"
	"iter"
	"net/http"
	"time"
)

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
	ExpiresAt time.Time       `json:"expiresAt"`
	CreatedAt time.Time       `json:"createdAt"`
}

// UploadMedia stores a media file (uploadMedia). fields are the other form
// fields (expiresIn, title, description, pinned, metadata).
func (c *Client) UploadMedia(ctx context.Context, f UploadFile, fields map[string]string) (*Media, error) {
	r, err := multipartRequest("/v1/media/upload", f, fields)
	if err != nil {
		return nil, err
	}
	var out Media
	_, err = c.do(ctx, r, &out)
	return ret(&out, err)
}

// MediaPage is one page of media.
type MediaPage struct {
	Media      []Media `json:"media"`
	Limit      int     `json:"limit"`
	NextCursor *string `json:"nextCursor"`
	HasMore    bool    `json:"hasMore"`
}

// ListMedia returns one page of the agent's media (listMedia); category may
// be empty.
func (c *Client) ListMedia(ctx context.Context, category string, limit int, cursor string) (*MediaPage, error) {
	var out MediaPage
	_, err := c.do(ctx, &request{method: http.MethodGet, path: "/v1/media",
		query: query("category", category, "limit", itoa(limit), "cursor", cursor)}, &out)
	return ret(&out, err)
}

// AllMedia iterates over all the agent's media of a category (or all).
func (c *Client) AllMedia(ctx context.Context, category string) iter.Seq2[Media, error] {
	return paginate(func(cursor string) ([]Media, *string, error) {
		pg, err := c.ListMedia(ctx, category, 100, cursor)
		if err != nil {
			return nil, nil, err
		}
		return pg.Media, pg.NextCursor, nil
	})
}

// GetMedia returns a media record (getMedia).
func (c *Client) GetMedia(ctx context.Context, id string) (*Media, error) {
	var out Media
	return ret(&out, c.call(ctx, http.MethodGet, "/v1/media/"+esc(id), nil, &out, authAgent))
}

// MediaDeletion is the result of deleteMedia.
type MediaDeletion struct {
	Deleted bool   `json:"deleted"`
	ID      string `json:"id"`
}

// DeleteMedia deletes a media file (deleteMedia).
func (c *Client) DeleteMedia(ctx context.Context, id string) (*MediaDeletion, error) {
	var out MediaDeletion
	return ret(&out, c.call(ctx, http.MethodDelete, "/v1/media/"+esc(id), nil, &out, authAgent))
}

// RenewMedia gives a media file a new time to live from now, e.g. "90d"
// (renewMedia).
func (c *Client) RenewMedia(ctx context.Context, id, expiresIn string) (*Media, error) {
	var out Media
	return ret(&out, c.call(ctx, http.MethodPost, "/v1/media/"+esc(id)+"/renew", map[string]string{"expiresIn": expiresIn}, &out, authAgent))
}

// StreamMedia streams a media file's bytes, whole or by Range
// (streamMedia). The caller closes the body.
func (c *Client) StreamMedia(ctx context.Context, id string, o RangeOptions) (*Stream, error) {
	r := &request{method: http.MethodGet, path: "/v1/media/" + esc(id) + "/stream"}
	o.apply(r)
	return c.stream(ctx, r)
}

// HeadMedia returns a media stream's headers without its bytes (headMedia).
func (c *Client) HeadMedia(ctx context.Context, id string, o RangeOptions) (*Stream, error) {
	r := &request{method: http.MethodHead, path: "/v1/media/" + esc(id) + "/stream"}
	o.apply(r)
	s, err := c.stream(ctx, r)
	if err != nil {
		return nil, err
	}
	_ = s.Body.Close()
	s.Body = http.NoBody
	return s, nil
}
