package client

import (
	"context"
	"net/http"

	"github.com/cairn-dev/cairn/wire"
)

// MemoryVectorSpaces lists the vector spaces the server computes and the
// one a text query uses by default (memoryVectorSpaces).
func (c *Client) MemoryVectorSpaces(ctx context.Context) (*VectorSpaces, error) {
	return callFor[VectorSpaces](ctx, c, http.MethodGet, "/v1/memory/vector-spaces", nil, authAgent)
}

// ReembedMemories embeds the agent's memories again in space (hash-v1 or
// server) (reembedMemories, free).
func (c *Client) ReembedMemories(ctx context.Context, space string) (*Reembed, error) {
	return callFor[Reembed](ctx, c, http.MethodPost, "/v1/memory/reembed", wire.ReembedRequest{Space: space}, authAgent)
}

// VectorSearchMemories ranks memories by vector similarity
// (vectorSearchMemories).
func (c *Client) VectorSearchMemories(ctx context.Context, s VectorSearchRequest) (*VectorSearchResults, error) {
	return callFor[VectorSearchResults](ctx, c, http.MethodPost, "/v1/memory/vector-search", s, authAgent)
}
