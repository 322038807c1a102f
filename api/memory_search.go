package api

import (
	"net/http"
	"time"

	"github.com/cairn-dev/cairn"
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
	}
	return out
}

// pinMemory is PATCH /v1/memory/:id/pin (free): toggles the pin.
func (s *Server) pinMemory(c *gin.Context) error {
	m, err := s.Memory.TogglePin(c.Request.Context(), agentOf(c).ID, c.Param("id"), requestID(c))
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, gin.H{"id": c.Param("id"), "memoryId": m.ID, "key": m.Key, "pinned": m.Pinned,
		"expiresAt": optTime(m.ExpiresAt), "updatedAt": timestamp(m.UpdatedAt)})
	return nil
}

type importanceRequest struct {
	Importance *float64 `json:"importance"`
}

// memoryImportance is PATCH /v1/memory/:id/importance (free).
func (s *Server) memoryImportance(c *gin.Context) error {
	var req importanceRequest
	if err := bindJSON(c, &req, false); err != nil {
		return err
	}
	if req.Importance == nil {
		return cairn.Errorf(cairn.EINVALID, "importance is required.").With("field", "importance")
	}
	m, err := s.Memory.SetImportance(c.Request.Context(), agentOf(c).ID, c.Param("id"), *req.Importance, requestID(c))
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, gin.H{"id": c.Param("id"), "memoryId": m.ID, "key": m.Key, "importance": m.Importance,
		"updatedAt": timestamp(m.UpdatedAt)})
	return nil
}

// expiringJSON is an item of the expiring lists.
func expiringJSON(ms []cairn.Memory, now time.Time) []gin.H {
	out := make([]gin.H, len(ms))
	for i, m := range ms {
		out[i] = gin.H{"id": m.LatestID, "memoryId": m.ID, "key": m.Key, "type": m.Type, "pinned": m.Pinned,
			"importance": m.Importance, "expiresAt": timestamp(m.ExpiresAt),
			"expiresInSeconds": int64(m.ExpiresAt.Sub(now) / time.Second)}
	}
	return out
}

func ttlParam(v, def, field string) (time.Duration, string, error) {
	if v == "" {
		v = def
	}
	d, err := cairn.ParseTTL(v)
	if err != nil {
		return 0, v, cairn.Errorf(cairn.EINVALID, "%s", cairn.ErrorMessage(err)).With("field", field)
	}
	return d, v, nil
}

// expiringMemories is GET /v1/memory/expiring (free): ?within (default
// 24h), ?type, ?limit.
func (s *Server) expiringMemories(c *gin.Context) error {
	limit, err := pageLimit(c)
	if err != nil {
		return err
	}
	d, within, err := ttlParam(c.Query("within"), "24h", "within")
	if err != nil {
		return err
	}
	ms, err := s.Memory.Expiring(c.Request.Context(), agentOf(c).ID, c.Query("type"), d, limit)
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, gin.H{"expiring": expiringJSON(ms, s.Clock.Now()), "count": len(ms), "within": within})
	return nil
}

type ttlAlertsRequest struct {
	Within         string   `json:"within"`
	Type           string   `json:"type"`
	RenewIDs       []string `json:"renewIds"`
	RenewExpiresIn string   `json:"renewExpiresIn"`
}

// ttlAlerts is POST /v1/memory/ttl-alerts (spec 4.9, free).
func (s *Server) ttlAlerts(c *gin.Context) error {
	var req ttlAlertsRequest
	if err := bindJSON(c, &req, true); err != nil {
		return err
	}
	d, within, err := ttlParam(req.Within, "24h", "within")
	if err != nil {
		return err
	}
	var renewFor time.Duration
	if len(req.RenewIDs) > 0 {
		if len(req.RenewIDs) > memory.MaxRenewIDs {
			return cairn.Errorf(cairn.EINVALID, "At most %d renewIds.", memory.MaxRenewIDs).With("field", "renewIds")
		}
		if req.RenewExpiresIn == "" {
			return cairn.Errorf(cairn.EINVALID, "renewExpiresIn is required with renewIds.").With("field", "renewExpiresIn")
		}
		if renewFor, _, err = ttlParam(req.RenewExpiresIn, "", "renewExpiresIn"); err != nil {
			return err
		}
	}
	agent := agentOf(c)
	renewed := []gin.H{}
	for _, r := range s.Memory.Renew(c.Request.Context(), agent.ID, req.RenewIDs, renewFor, requestID(c)) {
		item := gin.H{"id": r.ID, "success": r.Success, "newExpiresAt": nil}
		if r.Success {
			item["newExpiresAt"] = timestamp(r.NewExpiresAt)
		} else {
			item["error"] = r.Error
		}
		renewed = append(renewed, item)
	}
	ms, err := s.Memory.Expiring(c.Request.Context(), agent.ID, req.Type, d, MaxPageSize)
	if err != nil {
		return err
	}
	n := 0
	for _, r := range renewed {
		if r["success"] == true {
			n++
		}
	}
	writeJSON(c, http.StatusOK, gin.H{"expiring": expiringJSON(ms, s.Clock.Now()), "expiringCount": len(ms),
		"within": within, "renewed": renewed, "renewedCount": n})
	return nil
}
