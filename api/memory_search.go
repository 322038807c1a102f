package api

import (
	"net/http"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/memory"
	"github.com/gin-gonic/gin"
)

type searchRequest struct {
	// Query matches key names (spec 4.5); KeyQuery is the same criterion
	// under a name that cannot be read as a search of the content.
	Query        string   `json:"query"`
	KeyQuery     string   `json:"keyQuery"`
	ContentQuery string   `json:"contentQuery"`
	Tags         []string `json:"tags"`
	Limit        int      `json:"limit"`
	Mode         string   `json:"mode"`
}

// searchMemories is POST /v1/memory/search (spec 4.5). Response: results
// (best first: the memory fields of a listing plus score and matchedOn),
// count, searched (what each criterion was matched against) and, when a
// key-name search found nothing, a hint.
func (s *Server) searchMemories(c *gin.Context) error {
	var req searchRequest
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
	out := gin.H{"results": hitsJSON(hits), "count": len(hits), "searched": searched(&req)}
	if len(hits) == 0 && req.Query != "" && req.ContentQuery == "" {
		out["hint"] = "query (or keyQuery) matches key names only, not content: send contentQuery to search the words of " +
			"the content, with mode hybrid to add similar text."
	}
	writeJSON(c, http.StatusOK, out)
	return nil
}

// searched says what each criterion of a search was matched against.
func searched(req *searchRequest) gin.H {
	out := gin.H{}
	if req.Query != "" {
		out["keyNames"] = req.Query
	}
	if req.ContentQuery != "" {
		out["content"] = req.ContentQuery
		if req.Mode == memory.ModeHybrid {
			out["contentVectors"] = memory.SpaceHash
		}
	}
	if len(req.Tags) > 0 {
		out["tags"] = req.Tags
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
func hitsJSON(hits []memory.Hit) []gin.H {
	out := make([]gin.H, len(hits))
	for i := range hits {
		j := toMemoryJSON(&hits[i].View, false)
		out[i] = gin.H{"id": j.ID, "memoryId": j.MemoryID, "type": j.Type, "key": j.Key, "version": j.Version,
			"isLatest": j.IsLatest, "sizeBytes": j.SizeBytes, "pinned": j.Pinned, "importance": j.Importance,
			"metadata": j.Metadata, "visibility": j.Visibility, "encryptionProvider": j.EncryptionProvider,
			"createdAt": j.CreatedAt, "updatedAt": j.UpdatedAt, "score": hits[i].Score, "matchedOn": hits[i].Matched}
		if j.StoredBytes > 0 {
			out[i]["storedBytes"] = j.StoredBytes
		}
	}
	return out
}
