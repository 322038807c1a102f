package api

import (
	"net/http"

	"github.com/cairn-dev/cairn/memory"
	"github.com/cairn-dev/cairn/wire"
	"github.com/gin-gonic/gin"
)

type vectorSearchRequest struct {
	Query  string `json:"query"`
	Space  string `json:"space"`
	Vector *struct {
		Space  string    `json:"space"`
		Values []float32 `json:"values"`
	} `json:"vector"`
	Limit         int      `json:"limit"`
	MinScore      *float64 `json:"minScore"`
	Type          string   `json:"type"`
	Tags          []string `json:"tags"`
	Visibility    string   `json:"visibility"`
	MinImportance float64  `json:"minImportance"`
	KeyPrefix     string   `json:"keyPrefix"`
}

// vectorSearchMemories is POST /v1/memory/vector-search (spec 4.11):
// similarity search over the latest versions' vectors. Response: results
// (best first, as in search, score the cosine similarity), count and the
// space searched.
func (s *Server) vectorSearchMemories(c *gin.Context) error {
	var req vectorSearchRequest
	if err := bindJSON(c, &req, false); err != nil {
		return err
	}
	q := memory.VectorQuery{Text: req.Query, Space: req.Space, Limit: req.Limit, MinScore: req.MinScore,
		Filter: memory.VectorFilter{Type: req.Type, Tags: req.Tags, Visibility: req.Visibility,
			MinImportance: req.MinImportance, KeyPrefix: req.KeyPrefix}}
	if req.Vector != nil {
		q.Space, q.Vector = req.Vector.Space, req.Vector.Values
		if q.Vector == nil {
			q.Vector = []float32{}
		}
	}
	hits, err := s.Memory.VectorSearch(c.Request.Context(), agentOf(c).ID, &q, requestID(c))
	if err != nil {
		return err
	}
	if req.MinScore == nil && req.Vector == nil {
		hits = positive(hits) // a text query sharing nothing with a memory does not match it
	}
	searched := wire.VectorSearched{Space: q.Space, Kind: s.spaceKind(q.Space), Content: req.Query}
	writeJSON(c, http.StatusOK, wire.VectorSearchResults{Results: hitsJSON(hits), Count: len(hits), Space: q.Space, Searched: searched})
	return nil
}

// spaceKind says what similarity in a vector space means: lexical (shared
// words and word pieces) for hash-v1, semantic for the server's embedder,
// client for the agent's own vectors.
func (s *Server) spaceKind(space string) string {
	switch space {
	case memory.SpaceHash:
		return "lexical"
	case memory.SpaceServer:
		return "semantic"
	}
	return "client"
}

// vectorSpaces is GET /v1/memory/vector-spaces (free): the spaces the
// service computes, what their similarity means, and which one a text
// query uses by default.
func (s *Server) vectorSpaces(c *gin.Context) error {
	spaces := []wire.VectorSpace{{Name: memory.SpaceHash, Kind: "lexical", Available: true,
		Description: "Built in: finds memories that share words and word pieces with the query, not ones that say the same in other words."}}
	server := wire.VectorSpace{Name: memory.SpaceServer, Kind: "semantic", Available: s.Memory.Embedder != nil,
		Description: "The operator's embedding model (--embedder-url): finds memories of similar meaning. Not configured on this server."}
	def := memory.SpaceHash
	if e := s.Memory.Embedder; e != nil {
		server.Model, def = &e.Model, memory.SpaceServer
		server.Description = "The operator's embedding model: finds memories of similar meaning."
	}
	writeJSON(c, http.StatusOK, wire.VectorSpaces{Spaces: append(spaces, server), DefaultTextSpace: def,
		ClientSpaces: "Vectors you store with a write (embedding) live in spaces you name; search them with vector {space, values}."})
	return nil
}

// reembedMemories is POST /v1/memory/reembed (free): embeds the agent's
// memories again in hash-v1, or queues them for the server embedder.
func (s *Server) reembedMemories(c *gin.Context) error {
	var req wire.ReembedRequest
	if err := bindJSON(c, &req, false); err != nil {
		return err
	}
	n, err := s.Memory.Reembed(c.Request.Context(), agentOf(c).ID, req.Space)
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, wire.Reembed{Space: req.Space, Count: n, Queued: req.Space == memory.SpaceServer})
	return nil
}
