package client

import (
	"context"
	"net/http"
)

// VectorSearchResults are the hits of a vector search, most similar
// first, and the space searched.
type VectorSearchResults struct {
	Count   int         `json:"count"`
	Space   string      `json:"space"`
	Results []SearchHit `json:"results"`
}

// Reembed is the result of reembedMemories.
type Reembed struct {
	Space  string `json:"space"`
	Count  int    `json:"count"`
	Queued bool   `json:"queued"`
}

// ReembedMemories embeds the agent's memories again in space (hash-v1 or
// server) (reembedMemories, free).
func (c *Client) ReembedMemories(ctx context.Context, space string) (*Reembed, error) {
	var out Reembed
	return ret(&out, c.call(ctx, http.MethodPost, "/v1/memory/reembed", map[string]string{"space": space}, &out, authAgent))
}

// VectorSearchMemories ranks memories by vector similarity
// (vectorSearchMemories).
func (c *Client) VectorSearchMemories(ctx context.Context, s VectorSearchRequest) (*VectorSearchResults, error) {
	var out VectorSearchResults
	return ret(&out, c.call(ctx, http.MethodPost, "/v1/memory/vector-search", s, &out, authAgent))
}
