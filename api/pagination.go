package api

import (
	"context"
	"strconv"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/wire"
	"github.com/gin-gonic/gin"
)

// Page sizes (spec 8).
const (
	DefaultPageSize = 50
	MaxPageSize     = 100
)

// pageLimit reads ?limit (default 50, 1..100).
func pageLimit(c *gin.Context) (int, error) {
	v, ok := c.GetQuery("limit")
	if !ok {
		return DefaultPageSize, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > MaxPageSize {
		return 0, cairn.Errorf(cairn.EINVALID, "limit must be an integer from 1 to %d.", MaxPageSize).With("field", "limit")
	}
	return n, nil
}

// page is the paging of one listing request. Every listing pages the same
// way: ?limit (pageLimit) and ?cursor, a cursor signed by the server and
// bound to the principal that listed and to the filter it listed with
// (cairn.Cursors.EncodePage), answered with limit, nextCursor and hasMore.
type page struct {
	Limit int
	// After is the position the cursor carries ("" on the first page).
	After string

	principal, filter string
}

// readPage reads ?limit and ?cursor of a listing with filter by the
// request's principal.
func (s *Server) readPage(c *gin.Context, filter string) (page, error) {
	limit, err := pageLimit(c)
	if err != nil {
		return page{}, err
	}
	p := page{Limit: limit, principal: pagePrincipal(c), filter: filter}
	if cur := c.Query("cursor"); cur != "" {
		if p.After, err = s.Cursors.DecodePage(cur, p.principal, filter); err != nil {
			return page{}, err
		}
	}
	return p, nil
}

// readIDPage is readPage for a listing whose positions are record ids.
func (s *Server) readIDPage(c *gin.Context, filter string) (page, error) {
	p, err := s.readPage(c, filter)
	if err == nil && p.After != "" && !cairn.ValidID(p.After) {
		return page{}, cairn.InvalidCursor()
	}
	return p, err
}

// listByID reads an id page of the caller's records that filter selects,
// lists it and converts each record with conv (which also gives its id). It
// returns them with the page's paging, whose nextCursor is nil on the last
// page.
func listByID[T, W any](s *Server, c *gin.Context, filter string, list func(ctx context.Context, agentID, filter, beforeID string, limit int) ([]T, bool, error),
	conv func(*T) (string, W)) ([]W, wire.Paging, error) {
	pg, err := s.readIDPage(c, filter)
	if err != nil {
		return nil, wire.Paging{}, err
	}
	items, more, err := list(c.Request.Context(), agentOf(c).ID, filter, pg.After, pg.Limit)
	if err != nil {
		return nil, wire.Paging{}, err
	}
	out := make([]W, len(items))
	last := ""
	for i := range items {
		last, out[i] = conv(&items[i])
	}
	if !more {
		last = ""
	}
	return out, wire.PagingOf(pg.Limit, s.next(pg, last)), nil
}

// next returns the nextCursor member of the page whose last item is at
// pos: nil when there is no next page (pos "").
func (s *Server) next(p page, pos string) *string {
	if pos == "" {
		return nil
	}
	cursor := s.Cursors.EncodePage(p.principal, p.filter, pos)
	return &cursor
}

// pagePrincipal names the caller a cursor is bound to: the agent, or the
// developer of a developer token.
func pagePrincipal(c *gin.Context) string {
	p := principalOf(c)
	if p.Agent != nil {
		return cairn.AgentPrincipal(p.Agent.ID)
	}
	return cairn.DeveloperPrincipal(p.DeveloperID)
}

// developerPage reads the page (readPage or readIDPage) for filter, lists
// the caller's developer account's records with list and converts them
// with conv, pos giving each one's position. It returns them with the
// page's paging, whose nextCursor is nil when no next page may follow.
func developerPage[T, W any](s *Server, c *gin.Context, read func(*gin.Context, string) (page, error), filter string,
	list func(ctx context.Context, developerID, after string, limit int) ([]T, error), conv func(*T) W, pos func(*T) string) ([]W, wire.Paging, error) {
	pg, err := read(c, filter)
	if err != nil {
		return nil, wire.Paging{}, err
	}
	items, err := list(c.Request.Context(), principalOf(c).DeveloperID, pg.After, pg.Limit)
	if err != nil {
		return nil, wire.Paging{}, err
	}
	out := make([]W, len(items))
	for i := range items {
		out[i] = conv(&items[i])
	}
	if len(items) < pg.Limit || len(items) == 0 {
		return out, wire.PagingOf(pg.Limit, nil), nil
	}
	return out, wire.PagingOf(pg.Limit, s.next(pg, pos(&items[len(items)-1]))), nil
}
