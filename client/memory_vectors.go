package client

import (
	"context"
	"net/http"
)

// VectorSearchResults are the hits of a vector search, most similar
// first, and the space searched.
type VectorSearchResults struct {
	Count    int    `json:"count"`
	Space    string `json:"space"`
	Searched struct {
		Space   string `json:"space"`
		Kind    string `json:"kind"`
		Content string `json:"content,omitempty"`
	} `json:"searched"`
	Results []SearchHit `json:"results"`
}

// VectorSpaces are the vector spaces the server computes
// (memoryVectorSpaces).
type VectorSpaces struct {
	DefaultTextSpace string `json:"defaultTextSpace"`
	ClientSpaces     string `json:"clientSpaces"`
	Spaces           []struct {
		Name        string  `json:"name"`
		Kind        string  `json:"kind"`
		Available   bool    `json:"available"`
		Model       *string `json:"model"`
		Description string  `json:"description"`
	} `json:"spaces"`
}

// MemoryVectorSpaces lists the vector spaces the server computes and the
// one a text query uses by default (memoryVectorSpaces).
func (c *Client) MemoryVectorSpaces(ctx context.Context) (*VectorSpaces, error) {
	var out VectorSpaces
	return ret(&out, c.call(ctx, http.MethodGet, "/v1/memory/vector-spaces", nil, &out, authAgent))
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
