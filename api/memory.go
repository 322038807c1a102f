package api

import (
	"net/http"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/billing"
	"github.com/cairn-dev/cairn/memory"
	"github.com/cairn-dev/cairn/wire"
	"github.com/gin-gonic/gin"
)

// memoryRoutes registers the memory endpoints (spec 4.1-4.11) on the agent
// group. Fixed paths come before /memory/:id so that gin matches them.
func (s *Server) memoryRoutes(agent *gin.RouterGroup) {
	agent.POST("/memory", strictBody[memoryRequest](), s.idempotent(), s.paid(billing.OpMemoryWrite), h(s.createMemory))
	agent.GET("/memory", s.paid(billing.OpMemoryRead), h(s.listMemories))
	agent.POST("/memory/search", strictBody[wire.SearchRequest](), s.paid(billing.OpSearch), h(s.searchMemories))
	agent.POST("/memory/vector-search", strictBody[vectorSearchRequest](), s.paid(billing.OpSearch), h(s.vectorSearchMemories))
	agent.POST("/memory/reembed", strictBody[wire.ReembedRequest](), h(s.reembedMemories))
	agent.POST("/memory/upload", s.idempotent(), s.paid(billing.OpMemoryWrite), h(s.uploadMemory))
	agent.POST("/memory/bulk", strictBody[bulkStrict](), s.idempotent(), s.paid(""), h(s.bulkMemories))
	agent.POST("/memory/bulk-delete", strictBody[wire.BulkDeleteRequest](), s.paid(""), h(s.bulkDeleteMemories))
	agent.GET("/memory/expiring", h(s.expiringMemories))
	agent.POST("/memory/ttl-alerts", strictBody[wire.TTLAlertsRequest](), h(s.ttlAlerts))
	agent.GET("/memory/audit", h(s.memoryAudit))
	agent.GET("/memory/by-key", s.paid(billing.OpMemoryRead), h(s.getMemoryByKey))
	agent.GET("/memory/vector-spaces", h(s.vectorSpaces))
	agent.GET("/memory/:id", fixedPathMethod, s.paid(billing.OpMemoryRead), h(s.getMemory))
	agent.PUT("/memory/:id", fixedPathMethod, strictBody[memoryPutRequest](), s.paid(billing.OpMemoryUpdate), h(s.putMemory))
	agent.DELETE("/memory/:id", fixedPathMethod, s.paid(billing.OpMemoryDelete), h(s.deleteMemory))
	agent.GET("/memory/:id/history", h(s.memoryHistory))
	agent.GET("/memory/:id/download", s.paid(billing.OpMemoryRead), h(s.downloadMemory))
	agent.PATCH("/memory/:id/pin", strictBody[wire.PinRequest](), h(s.pinMemory))
	agent.PATCH("/memory/:id/importance", strictBody[wire.ImportanceRequest](), h(s.memoryImportance))
}

// memoryFixedPaths are the fixed paths under /v1/memory and their methods.
var memoryFixedPaths = map[string]string{"search": "POST", "upload": "POST", "bulk": "POST", "bulk-delete": "POST",
	"ttl-alerts": "POST", "expiring": "GET", "audit": "GET", "vector-search": "POST", "reembed": "POST", "by-key": "GET", "vector-spaces": "GET"}

// fixedPathMethod answers 405, before any charge, a method a fixed path
// does not take: gin routes GET /v1/memory/search to /memory/:id, which
// would charge a 404 for an id that can never exist.
func fixedPathMethod(c *gin.Context) {
	if allow, ok := memoryFixedPaths[c.Param("id")]; ok {
		c.Header("Allow", allow)
		writeError(c, cairn.Errorf(cairn.EMETHOD, "Method %s is not allowed on %s.", c.Request.Method, c.Request.URL.Path))
	}
}

// createMemory is POST /v1/memory (spec 4.1).
func (s *Server) createMemory(c *gin.Context) error {
	w, err := bindWrite(c)
	if err != nil {
		return err
	}
	return s.create(c, w)
}

// bindWrite reads the body of POST or PUT /v1/memory.
func bindWrite(c *gin.Context) (*memory.Write, error) {
	var req memoryRequest
	if err := bindJSON(c, &req, false); err != nil {
		return nil, err
	}
	return req.write(c)
}

// create stores version 1 of w's memory, replayable under the request's
// Idempotency-Key, and answers 201.
func (s *Server) create(c *gin.Context, w *memory.Write) error {
	replayable(c, w)
	v, err := s.Memory.Create(c.Request.Context(), agentOf(c).ID, w)
	if err != nil {
		return err
	}
	writeCreated(c, v)
	return nil
}

// getMemory is GET /v1/memory/:id (spec 4.2): any version's id; with
// ?agentId= a shared memory of another agent of the developer.
func (s *Server) getMemory(c *gin.Context) error {
	owner, err := s.sharedOwner(c)
	if err != nil {
		return err
	}
	var v *memory.View
	if owner != "" {
		v, err = s.Memory.GetShared(c.Request.Context(), owner, c.Param("id"), "", requestID(c))
	} else {
		v, err = s.Memory.Get(c.Request.Context(), agentOf(c).ID, c.Param("id"), true, requestID(c))
	}
	if err != nil {
		return err
	}
	etag(c, v.Memory.Latest)
	writeJSON(c, http.StatusOK, toMemoryJSON(v, true))
	return nil
}

// getMemoryByKey is GET /v1/memory/by-key?key=K: the latest version of
// the memory with the key, as GET /v1/memory/:id shows a version.
func (s *Server) getMemoryByKey(c *gin.Context) error {
	key, ok := c.GetQuery("key")
	if !ok || key == "" {
		return cairn.Errorf(cairn.EINVALID, "key is required: GET /v1/memory/by-key?key=notes/today.").With("field", "key")
	}
	owner, err := s.sharedOwner(c)
	if err != nil {
		return err
	}
	var v *memory.View
	if owner != "" {
		v, err = s.Memory.GetShared(c.Request.Context(), owner, "", key, requestID(c))
	} else {
		v, err = s.Memory.GetByKey(c.Request.Context(), agentOf(c).ID, key, true, requestID(c))
	}
	if err != nil {
		return err
	}
	etag(c, v.Memory.Latest)
	writeJSON(c, http.StatusOK, toMemoryJSON(v, true))
	return nil
}

// sharedOwner is the agent whose shared memories a read names with
// ?agentId=: another agent of the caller's developer; "" for the caller's
// own memories (no agentId, or its own).
func (s *Server) sharedOwner(c *gin.Context) (string, error) {
	id, ok := c.GetQuery("agentId")
	if !ok || id == agentOf(c).ID {
		return "", nil
	}
	a, err := s.Accounts.Sibling(c.Request.Context(), agentOf(c), id)
	if err != nil {
		return "", err
	}
	return a.ID, nil
}

// putMemory is PUT /v1/memory/:id (spec 4.4): version N+1, optionally
// guarded by If-Match with the latest version number.
func (s *Server) putMemory(c *gin.Context) error {
	ifMatch, err := parseIfMatch(strings.Join(c.Request.Header.Values("If-Match"), ","))
	if err != nil {
		return err
	}
	w, err := bindWrite(c)
	if err != nil {
		return err
	}
	v, err := s.Memory.NewVersion(c.Request.Context(), agentOf(c).ID, c.Param("id"), ifMatch, w)
	if err != nil {
		return err
	}
	etag(c, v.Memory.Latest)
	writeJSON(c, http.StatusOK, toMemoryJSON(v, false))
	return nil
}

// parseIfMatch reads an If-Match header (RFC 9110 13.1.1) into the test
// of the latest version number: nil when there is no condition (no header,
// or "*": the memory must exist, which every PUT requires anyway). A list
// matches when one of its entity tags does; comparison is strong, so a weak
// tag (W/"3") never matches. A bare number is taken as its quoted tag.
func parseIfMatch(raw string) (func(latest int) bool, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" || raw == "*" {
		return nil, nil
	}
	bad := cairn.Errorf(cairn.EINVALID, "If-Match must be \"*\" or a list of entity tags such as \"3\", the latest version number.").With("field", "If-Match")
	var strong []string
	for _, tag := range strings.Split(raw, ",") {
		tag = strings.TrimSpace(tag)
		weak := strings.HasPrefix(tag, "W/")
		if weak {
			tag = tag[2:]
		}
		switch {
		case tag == "" && !weak:
			continue // empty list element
		case len(tag) >= 2 && tag[0] == '"' && tag[len(tag)-1] == '"':
			for _, r := range tag[1 : len(tag)-1] {
				if r == '"' || r <= ' ' || r == 0x7f {
					return nil, bad
				}
			}
		case !weak && tag != "" && strings.Trim(tag, "0123456789") == "":
			tag = `"` + tag + `"`
		default:
			return nil, bad
		}
		if !weak {
			strong = append(strong, tag)
		}
	}
	return func(latest int) bool { return slices.Contains(strong, etagValue(latest)) }, nil
}

// deleteMemory is DELETE /v1/memory/:id (spec 3.1, 4.11), optionally
// guarded by If-Match with the latest version number, as PUT is.
func (s *Server) deleteMemory(c *gin.Context) error {
	ifMatch, err := parseIfMatch(strings.Join(c.Request.Header.Values("If-Match"), ","))
	if err != nil {
		return err
	}
	switch c.Query("scope") {
	case "", "version":
	case "memory":
		return s.deleteWholeMemory(c, ifMatch)
	default:
		return cairn.Errorf(cairn.EINVALID, "scope must be version (the default: this version only) or memory (every version).").
			With("field", "scope").With("allowed", []string{"version", "memory"})
	}
	head, gone, err := s.Memory.Delete(c.Request.Context(), agentOf(c).ID, c.Param("id"), ifMatch, requestID(c))
	if err != nil {
		return err
	}
	out := wire.DeleteResult{Deleted: true, Scope: "version", ID: gone.ID, Version: gone.Version, MemoryID: gone.MemoryID,
		MemoryDeleted: head == nil, VersionsDeleted: 1}
	if head != nil {
		out.LatestID, out.LatestVersion = &head.LatestID, &head.Latest
	}
	writeJSON(c, http.StatusOK, out)
	return nil
}

// deleteWholeMemory is DELETE /v1/memory/:id?scope=memory: every version
// of the memory holding the id (a version's id or its memoryId).
func (s *Server) deleteWholeMemory(c *gin.Context, ifMatch func(int) bool) error {
	m, vs, err := s.Memory.DeleteMemory(c.Request.Context(), agentOf(c).ID, c.Param("id"), ifMatch, requestID(c))
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, wire.DeleteResult{Deleted: true, Scope: "memory", ID: c.Param("id"), Version: m.Latest, MemoryID: m.ID,
		Key: m.Key, MemoryDeleted: true, VersionsDeleted: len(vs)})
	return nil
}
