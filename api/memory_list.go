package api

import (
	"net/http"
	"strconv"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/memory"
	"github.com/cairn-dev/cairn/store"
	"github.com/gin-gonic/gin"
)

// listCursor is the state of a memory list cursor: the agent, the query it
// belongs to and the position of the last item shown.
type listCursor struct {
	Agent string `json:"a"`
	Query string `json:"q"`
	Pos   string `json:"p"`
}

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
func memoryFilter(c *gin.Context) (store.MemoryFilter, error) {
	f := store.MemoryFilter{Type: c.Query("type"), Visibility: c.Query("visibility"), SortBy: c.Query("sortBy")}
	switch f.Visibility {
	case "", "private", "share":
	default:
		return f, cairn.Errorf(cairn.EINVALID, "visibility must be private or share.").With("field", "visibility")
	}
	switch f.SortBy {
	case "", store.SortCreated, store.SortUpdated, store.SortImportance:
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
	limit, err := pageLimit(c)
	if err != nil {
		return err
	}
	f, err := memoryFilter(c)
	if err != nil {
		return err
	}
	agent := agentOf(c)
	q := store.MemoryQuery{Filter: f, Limit: limit}
	fingerprint := c.Request.URL.Query()
	fingerprint.Del("cursor")
	fingerprint.Del("limit")
	queryID := fingerprint.Encode()
	raw, hasOffset := c.GetQuery("offset")
	cur := c.Query("cursor")
	switch {
	case hasOffset && cur != "":
		return cairn.Errorf(cairn.EINVALID, "Use offset or cursor, not both.").With("field", "cursor")
	case hasOffset:
		n, err := strconv.Atoi(raw)
		if err != nil || n < 0 || n > 1_000_000 {
			return cairn.Errorf(cairn.EINVALID, "offset must be a non-negative integer.").With("field", "offset")
		}
		q.Offset, q.Count = n, true
	case cur != "":
		var lc listCursor
		if err := s.Cursors.Decode(cur, &lc); err != nil {
			return err
		}
		if lc.Agent != agent.ID || lc.Query != queryID || lc.Pos == "" {
			return cairn.Errorf(cairn.EINVALID, "Invalid cursor.").With("field", "cursor")
		}
		q.After = lc.Pos
	}
	page, err := s.Memory.List(c.Request.Context(), agent.ID, q, requestID(c))
	if err != nil {
		return err
	}
	items := make([]memoryJSON, len(page.Items))
	for i := range page.Items {
		v := memory.ViewOf(&page.Items[i])
		items[i] = toMemoryJSON(&v, false)
	}
	out := gin.H{"memories": items, "limit": limit, "nextCursor": nil, "hasMore": page.Next != ""}
	if hasOffset {
		out["total"] = page.Total
	} else if page.Next != "" {
		out["nextCursor"] = s.Cursors.Encode(listCursor{Agent: agent.ID, Query: queryID, Pos: page.Next})
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

type auditCursor struct {
	Agent  string `json:"a"`
	Action string `json:"c,omitempty"`
	Before string `json:"b"`
}

// memoryAudit is GET /v1/memory/audit (spec 4.10), free: the agent's
// operation log, newest first, with cursor pagination.
func (s *Server) memoryAudit(c *gin.Context) error {
	limit, err := pageLimit(c)
	if err != nil {
		return err
	}
	agent := agentOf(c)
	action := c.Query("action")
	switch action {
	case "", cairn.AuditRead, cairn.AuditWrite, cairn.AuditDelete, cairn.AuditSearch, cairn.AuditList,
		cairn.AuditUpload, cairn.AuditPin, cairn.AuditImportance, cairn.AuditRotateKey, cairn.AuditReport, cairn.AuditModeration, cairn.AuditDeposit:
	default:
		return cairn.Errorf(cairn.EINVALID, "Unknown action %q.", action).With("field", "action")
	}
	before := ""
	if cur := c.Query("cursor"); cur != "" {
		var ac auditCursor
		if err := s.Cursors.Decode(cur, &ac); err != nil {
			return err
		}
		if ac.Agent != agent.ID || ac.Action != action || !cairn.ValidID(ac.Before) {
			return cairn.Errorf(cairn.EINVALID, "Invalid cursor.").With("field", "cursor")
		}
		before = ac.Before
	}
	entries, more, err := s.Memory.Log(c.Request.Context(), agent.ID, action, before, limit)
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
	var next any
	if more {
		next = s.Cursors.Encode(auditCursor{Agent: agent.ID, Action: action, Before: entries[len(entries)-1].ID})
	}
	writeJSON(c, http.StatusOK, gin.H{"entries": out, "limit": limit, "nextCursor": next, "hasMore": more})
	return nil
}
