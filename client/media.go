package client

import (
	"context"
	"iter"
	"net/http"

	"github.com/cairn-dev/cairn/wire"
)

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

// ListMedia returns one page of the agent's media (listMedia); category may
// be empty.
func (c *Client) ListMedia(ctx context.Context, category string, limit int, cursor string) (*MediaPage, error) {
	return getFor[MediaPage](ctx, c, "/v1/media",
		query("category", category, "limit", itoa(limit), "cursor", cursor))
}

// AllMedia iterates over all the agent's media of a category (or all).
func (c *Client) AllMedia(ctx context.Context, category string) iter.Seq2[Media, error] {
	return paginate(func(cursor string) (*MediaPage, error) { return c.ListMedia(ctx, category, 100, cursor) },
		func(pg *MediaPage) ([]Media, *string) { return pg.Media, pg.NextCursor })
}

// GetMedia returns a media record (getMedia).
func (c *Client) GetMedia(ctx context.Context, id string) (*Media, error) {
	return callFor[Media](ctx, c, http.MethodGet, "/v1/media/"+esc(id), nil, authAgent)
}

// DeleteMedia deletes a media file (deleteMedia).
func (c *Client) DeleteMedia(ctx context.Context, id string) (*MediaDeletion, error) {
	return callFor[MediaDeletion](ctx, c, http.MethodDelete, "/v1/media/"+esc(id), nil, authAgent)
}

// RenewMedia gives a media file a new time to live from now, e.g. "90d"
// (renewMedia).
func (c *Client) RenewMedia(ctx context.Context, id, expiresIn string) (*Media, error) {
	return callFor[Media](ctx, c, http.MethodPost, "/v1/media/"+esc(id)+"/renew", wire.RenewMediaRequest{ExpiresIn: &expiresIn}, authAgent)
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
