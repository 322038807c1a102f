package api

import (
	"net/http"
	"strconv"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/memory"
	"github.com/gin-gonic/gin"
)

func boolQuery(c *gin.Context, name string) (*bool, error) {
	v, ok := c.GetQuery(name)
	if !ok {
		return nil, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil || (v != "true" && v != "false") {
		return nil, cairn.Errorf(cairn.EINVALID, "%s must be true or false.", name).With("field", name)
	}
	return &b, nil
}

// memoryFilter reads the filters of GET /v1/memory (spec 4.3).
func memoryFilter(c *gin.Context) (cairn.MemoryFilter, error) {
	f := cairn.MemoryFilter{Type: c.Query("type"), Visibility: c.Query("visibility"), SortBy: c.Query("sortBy")}
	switch f.Visibility {
	case "", "private", "share":
	default:
		return f, cairn.Errorf(cairn.EINVALID, "visibility must be private or share.").With("field", "visibility")
	}
	switch f.SortBy {
	case "", cairn.SortCreated, cairn.SortUpdated, cairn.SortImportance:
	default:
		return f, cairn.Errorf(cairn.EINVALID, "sortBy must be createdAt, updatedAt or importance.").With("field", "sortBy")
	}
	var err error
	if f.Pinned, err = boolQuery(c, "pinned"); err != nil {
		return f, err
	}
	hist, err := boolQuery(c, "history")
	if err != nil {
		return f, err
	}
	f.History = hist != nil && *hist
	if v, ok := c.GetQuery("minImportance"); ok {
		n, err := strconv.ParseFloat(v, 64)
		if err != nil || !(n >= 0 && n <= 1) {
			return f, cairn.Errorf(cairn.EINVALID, "minImportance must be a number from 0 to 1.").With("field", "minImportance")
		}
		f.MinImportance = n
	}
	return f, nil
}

// listMemories is GET /v1/memory (spec 4.3). With offset the page carries
// total; otherwise it is cursor pagination and never carries total.
func (s *Server) listMemories(c *gin.Context) error {
	f, err := memoryFilter(c)
	if err != nil {
		return err
	}
	// The filter a cursor is bound to: every query parameter but the
	// paging ones.
	fingerprint := c.Request.URL.Query()
	fingerprint.Del("cursor")
	fingerprint.Del("limit")
	pg, err := s.readPage(c, fingerprint.Encode())
	if err != nil {
		return err
	}
	q := cairn.MemoryQuery{Filter: f, Limit: pg.Limit, After: pg.After}
	if raw, hasOffset := c.GetQuery("offset"); hasOffset {
		if pg.After != "" {
			return cairn.Errorf(cairn.EINVALID, "Use offset or cursor, not both.").With("field", "cursor")
		}
		n, err := strconv.Atoi(raw)
		if err != nil || n < 0 || n > 1_000_000 {
			return cairn.Errorf(cairn.EINVALID, "offset must be a non-negative integer.").With("field", "offset")
		}
		q.Offset, q.Count = n, true
	}
	page, err := s.Memory.List(c.Request.Context(), agentOf(c).ID, q, requestID(c))
	if err != nil {
		return err
	}
	items := make([]memoryJSON, len(page.Items))
	for i := range page.Items {
		v := memory.ViewOf(&page.Items[i])
		items[i] = toMemoryJSON(&v, false)
	}
	out := gin.H{"memories": items, "limit": pg.Limit, "nextCursor": nil, "hasMore": page.Next != ""}
	if q.Count {
		out["total"] = page.Total
	} else {
		out["nextCursor"] = s.next(pg, page.Next)
	}
	writeJSON(c, http.StatusOK, out)
	return nil
}

// memoryHistory is GET /v1/memory/:id/history (spec 4.8), free.
func (s *Server) memoryHistory(c *gin.Context) error {
	hist, err := s.Memory.History(c.Request.Context(), agentOf(c).ID, c.Param("id"), requestID(c))
	if err != nil {
		return err
	}
	versions := make([]gin.H, len(hist.Versions))
	for i, v := range hist.Versions {
		versions[i] = gin.H{"id": v.ID, "version": v.Version, "isLatest": v.Version == hist.Memory.Latest,
			"sizeBytes": v.SizeBytes, "createdAt": timestamp(v.CreatedAt)}
	}
	writeJSON(c, http.StatusOK, gin.H{"memoryId": hist.Memory.ID, "key": hist.Memory.Key, "type": hist.Memory.Type,
		"totalVersions": len(versions), "versions": versions})
	return nil
}

// memoryAudit is GET /v1/memory/audit (spec 4.10), free: the agent's
// operation log, newest first, with cursor pagination.
func (s *Server) memoryAudit(c *gin.Context) error {
	action := c.Query("action")
	switch action {
	case "", cairn.AuditRead, cairn.AuditWrite, cairn.AuditDelete, cairn.AuditSearch, cairn.AuditList,
		cairn.AuditUpload, cairn.AuditPin, cairn.AuditImportance, cairn.AuditRotateKey, cairn.AuditReport, cairn.AuditModeration, cairn.AuditDeposit:
	default:
		return cairn.Errorf(cairn.EINVALID, "Unknown action %q.", action).With("field", "action")
	}
	pg, err := s.readIDPage(c, action)
	if err != nil {
		return err
	}
	entries, more, err := s.Memory.Log(c.Request.Context(), agentOf(c).ID, action, pg.After, pg.Limit)
	if err != nil {
		return err
	}
	out := make([]gin.H, len(entries))
	for i, e := range entries {
		detail := e.Detail
		if detail == nil {
			detail = map[string]any{}
		}
		out[i] = gin.H{"id": e.ID, "action": e.Action, "resource": e.Resource, "detail": detail,
			"requestId": e.RequestID, "createdAt": timestamp(e.CreatedAt)}
	}
	last := ""
	if more {
		last = entries[len(entries)-1].ID
	}
	writeJSON(c, http.StatusOK, gin.H{"entries": out, "limit": pg.Limit, "nextCursor": s.next(pg, last), "hasMore": more})
	return nil
}
