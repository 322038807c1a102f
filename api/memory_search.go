package api

import (
	"net/http"

	"github.com/cairn-dev/cairn/memory"
	"github.com/gin-gonic/gin"
)

type searchRequest struct {
	Query        string   `json:"query"`
	ContentQuery string   `json:"contentQuery"`
	Tags         []string `json:"tags"`
	Limit        int      `json:"limit"`
	Mode         string   `json:"mode"`
}

// searchMemories is POST /v1/memory/search (spec 4.5). Response: results
// (best first: the memory fields of a listing plus score and matchedOn) and
// count.
func (s *Server) searchMemories(c *gin.Context) error {
	var req searchRequest
	if err := bindJSON(c, &req, false); err != nil {
		return err
	}
	hits, err := s.Memory.Search(c.Request.Context(), agentOf(c).ID,
		memory.Query{Query: req.Query, ContentQuery: req.ContentQuery, Tags: req.Tags, Limit: req.Limit, Mode: req.Mode}, requestID(c))
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, gin.H{"results": hitsJSON(hits), "count": len(hits)})
	return nil
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
