package api

import (
	"net/http"
	"strconv"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/memory"
	"github.com/cairn-dev/cairn/wire"
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
	q, err := memoryQuery(c, f, pg)
	if err != nil {
		return err
	}
	owner, err := s.listOwner(c, &q.Filter)
	if err != nil {
		return err
	}
	page, err := s.Memory.List(c.Request.Context(), owner, q, requestID(c))
	if err != nil {
		return err
	}
	items := make([]wire.Memory, len(page.Items))
	for i := range page.Items {
		v := memory.ViewOf(&page.Items[i])
		items[i] = toMemoryJSON(&v, false)
	}
	out := wire.MemoryPage{Memories: items, Limit: pg.Limit, HasMore: page.Next != ""}
	if q.Count {
		out.Total = &page.Total
	} else {
		out.NextCursor = s.next(pg, page.Next)
	}
	writeJSON(c, http.StatusOK, out)
	return nil
}

// listOwner is the agent whose memories a listing reads: the caller, or
// with ?agentId= another agent of its developer, whose shared memories
// only it lists.
func (s *Server) listOwner(c *gin.Context, f *cairn.MemoryFilter) (string, error) {
	owner, err := s.sharedOwner(c)
	switch {
	case err != nil:
		return "", err
	case owner == "":
		return agentOf(c).ID, nil
	case f.Visibility == "private":
		return "", cairn.Errorf(cairn.EINVALID, "Another agent's private memories are not readable; leave visibility out or give share.").With("field", "visibility")
	}
	f.Visibility = "share"
	return owner, nil
}

// memoryQuery is the query of a memory listing: f on page pg, or, with
// ?offset (not with a cursor), the page at that offset with the total
// count.
func memoryQuery(c *gin.Context, f cairn.MemoryFilter, pg page) (cairn.MemoryQuery, error) {
	q := cairn.MemoryQuery{Filter: f, Limit: pg.Limit, After: pg.After}
	raw, hasOffset := c.GetQuery("offset")
	if !hasOffset {
		return q, nil
	}
	if pg.After != "" {
		return q, cairn.Errorf(cairn.EINVALID, "Use offset or cursor, not both.").With("field", "cursor")
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 0 || n > 1_000_000 {
		return q, cairn.Errorf(cairn.EINVALID, "offset must be a non-negative integer.").With("field", "offset")
	}
	q.Offset, q.Count = n, true
	return q, nil
}
