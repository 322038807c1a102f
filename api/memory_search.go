package api

import (
	"net/http"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/memory"
	"github.com/cairn-dev/cairn/wire"
	"github.com/gin-gonic/gin"
)

// searchMemories is POST /v1/memory/search (spec 4.5). Response: results
// (best first: the memory fields of a listing plus score and matchedOn),
// count, searched (what each criterion was matched against) and, when a
// key-name search found nothing, a hint.
func (s *Server) searchMemories(c *gin.Context) error {
	var req wire.SearchRequest
	if err := bindJSON(c, &req, false); err != nil {
		return err
	}
	if req.KeyQuery != "" && req.Query != "" && req.KeyQuery != req.Query {
		return cairn.Errorf(cairn.EINVALID, "query and keyQuery are the same criterion (key names); give one of them.").With("field", "keyQuery")
	} else if req.KeyQuery != "" {
		req.Query = req.KeyQuery
	}
	hits, err := s.Memory.Search(c.Request.Context(), agentOf(c).ID,
		memory.Query{Query: req.Query, ContentQuery: req.ContentQuery, Tags: req.Tags, Limit: req.Limit, Mode: req.Mode}, requestID(c))
	if err != nil {
		return err
	}
	if req.Mode == memory.ModeHybrid {
		hits = positive(hits)
	}
	out := wire.SearchResults{Results: hitsJSON(hits), Count: len(hits), Searched: searched(&req)}
	if len(hits) == 0 && req.Query != "" && req.ContentQuery == "" {
		out.Hint = "query (or keyQuery) matches key names only, not content: send contentQuery to search the words of " +
			"the content, with mode hybrid to add similar text."
	}
	writeJSON(c, http.StatusOK, out)
	return nil
}

// searched says what each criterion of a search was matched against.
func searched(req *wire.SearchRequest) wire.SearchedFields {
	out := wire.SearchedFields{KeyNames: req.Query, Content: req.ContentQuery}
	if req.ContentQuery != "" && req.Mode == memory.ModeHybrid {
		out.ContentVectors = memory.SpaceHash
	}
	if len(req.Tags) > 0 {
		out.Tags = req.Tags
	}
	return out
}

// positive drops the hits that scored 0 or less: vector and hybrid
// rankings give every memory a score, and a 0 is no match, not a result.
func positive(hits []memory.Hit) []memory.Hit {
	out := hits[:0]
	for _, h := range hits {
		if h.Score > 0 {
			out = append(out, h)
		}
	}
	return out
}

// hitsJSON renders search hits: the memory fields of a listing plus score
// and matchedOn.
func hitsJSON(hits []memory.Hit) []wire.SearchHit {
	out := make([]wire.SearchHit, len(hits))
	for i := range hits {
		j := toMemoryJSON(&hits[i].View, false)
		out[i] = wire.SearchHit{ID: j.ID, MemoryID: j.MemoryID, Type: j.Type, Key: j.Key, Version: j.Version,
			IsLatest: j.IsLatest, SizeBytes: j.SizeBytes, StoredBytes: j.StoredBytes, Pinned: j.Pinned, Importance: j.Importance,
			Metadata: j.Metadata, Visibility: j.Visibility, EncryptionProvider: j.EncryptionProvider,
			CreatedAt: j.CreatedAt, UpdatedAt: j.UpdatedAt, Score: hits[i].Score, MatchedOn: hits[i].Matched}
	}
	return out
}
