package api

import (
	"net/http"
	"strconv"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/wire"
	"github.com/gin-gonic/gin"
)

// listingHistory is GET /v1/compliance/history?address=&chain=: when each
// source listed and delisted the address (free).
func (s *Server) listingHistory(c *gin.Context) error {
	addr, chain, fam, canon, err := s.addressQuery(c)
	if err != nil {
		return err
	}
	events := []wire.ListingEvent{}
	if s.Ingest != nil {
		hist, err := s.Ingest.History(c.Request.Context(), fam, canon)
		if err != nil {
			return err
		}
		for _, h := range hist {
			ev := map[bool]string{true: "listed", false: "delisted"}[h.Listed]
			events = append(events, wire.ListingEvent{ListVersion: int64(h.Version), At: wire.At(h.At), Event: ev, Source: h.Entry.Source,
				EntityID: h.Entry.EntityID, EntityName: h.Entry.EntityName, Programs: h.Entry.Programs.List(), Category: h.Entry.Category})
		}
	}
	ix := s.Compliance.Screening.Current()
	writeJSON(c, http.StatusOK, wire.ListingHistory{Address: addr, Chain: chain, Family: string(fam), CanonicalAddress: canon,
		Listed: len(ix.Lookup(fam, canon)) > 0, ListVersion: int64(ix.Version), Events: events})
	return nil
}

// listVersions is GET /v1/compliance/versions?limit=&cursor=: the list
// versions, newest first, with their added and removed counts and the
// state of each source (free). The older ?before=<version> (answered by
// nextBefore) still pages too.
func (s *Server) listVersions(c *gin.Context) error {
	before, err := versionsBefore(c)
	if err != nil {
		return err
	}
	pg, err := s.readPage(c, "")
	if err != nil {
		return err
	}
	if pg.After != "" {
		if before, err = strconv.ParseUint(pg.After, 10, 64); err != nil || before == 0 {
			return cairn.InvalidCursor()
		}
	}
	vs := []cairn.ListVersion{}
	if s.Ingest != nil {
		if vs, err = s.Ingest.Versions(c.Request.Context(), before, pg.Limit); err != nil {
			return err
		}
	}
	out := make([]wire.ListVersion, len(vs))
	for i, v := range vs {
		out[i] = wire.ListVersion{ListVersion: int64(v.Version), BuiltAt: wire.At(v.BuiltAt), Root: v.Root, LeafCount: v.Leaves,
			SanctionsRoot: optString(v.SanctionsRoot), CommunityRoot: optString(v.CommunityRoot), CommunityLeafCount: v.CommunityLeaves,
			Entries: v.Entries, Added: v.Added, Removed: v.Removed, Sources: sourcesJSON(v.Sources)}
	}
	var nextBefore *int64
	last := ""
	if len(vs) == pg.Limit && vs[len(vs)-1].Version > 1 { // versions are numbered from 1 without gaps
		before := int64(vs[len(vs)-1].Version)
		nextBefore, last = &before, strconv.FormatUint(vs[len(vs)-1].Version, 10)
	}
	writeJSON(c, http.StatusOK, wire.ListVersionPage{Versions: out, Limit: pg.Limit, NextCursor: s.next(pg, last),
		HasMore: last != "", NextBefore: nextBefore})
	return nil
}

// versionsBefore reads the older paging parameter of the list versions,
// ?before=<version> (0 when absent); it cannot be sent with a cursor.
func versionsBefore(c *gin.Context) (uint64, error) {
	v := c.Query("before")
	if v == "" {
		return 0, nil
	}
	if c.Query("cursor") != "" {
		return 0, cairn.Errorf(cairn.EINVALID, "Use before or cursor, not both.").With("field", "cursor")
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil || n == 0 {
		return 0, cairn.Errorf(cairn.EINVALID, "before must be a list version.").With("field", "before")
	}
	return n, nil
}

// sourcesJSON renders the per-source state of a list version.
func sourcesJSON(m map[string]cairn.SourceVersion) map[string]wire.SourceState {
	out := map[string]wire.SourceState{}
	for name, sv := range m {
		src := wire.SourceState{Entries: sv.Entries, SHA256: optString(sv.SHA256), BlobName: optString(sv.BlobName),
			FetchedAt: wire.OptAt(sv.FetchedAt), LastError: optString(sv.LastError), FailedAt: wire.OptAt(sv.FailedAt)}
		if sv.Bundled {
			src.Bundled, src.SourceSHA256, src.SnapshotDate = true, sv.SourceSHA256, sv.SnapshotDate
		}
		out[name] = src
	}
	return out
}

// versionChanges is GET /v1/compliance/versions/:version/changes?limit=
// &cursor=: the entries a list version listed and delisted (free).
func (s *Server) versionChanges(c *gin.Context) error {
	v, err := strconv.ParseUint(c.Param("version"), 10, 64)
	if err != nil || v == 0 || s.Ingest == nil {
		return cairn.Errorf(cairn.ENOTFOUND, "No list version %q.", c.Param("version"))
	}
	pg, offset, err := s.readOffsetPage(c, "version="+strconv.FormatUint(v, 10))
	if err != nil {
		return err
	}
	cs, err := s.Ingest.VersionChanges(c.Request.Context(), v, offset, pg.Limit+1)
	if err != nil {
		return err
	}
	vs, err := s.Ingest.Versions(c.Request.Context(), v+1, 1)
	if err != nil {
		return err
	} else if len(vs) == 0 || vs[0].Version != v {
		return cairn.Errorf(cairn.ENOTFOUND, "No list version %d.", v)
	}
	last := ""
	if len(cs) > pg.Limit {
		cs, last = cs[:pg.Limit], strconv.Itoa(offset+pg.Limit)
	}
	writeJSON(c, http.StatusOK, wire.VersionChangePage{BuiltAt: wire.At(vs[0].BuiltAt), Changes: versionChangesJSON(cs), HasMore: last != "",
		Limit: pg.Limit, ListVersion: int64(v), NextCursor: s.next(pg, last)})
	return nil
}

// readOffsetPage is readPage for a listing whose positions are offsets.
func (s *Server) readOffsetPage(c *gin.Context, filter string) (page, int, error) {
	pg, err := s.readPage(c, filter)
	if err != nil || pg.After == "" {
		return pg, 0, err
	}
	offset, err := strconv.Atoi(pg.After)
	if err != nil || offset < 0 {
		return page{}, 0, cairn.InvalidCursor()
	}
	return pg, offset, nil
}

// versionChangesJSON renders changes of a list version.
func versionChangesJSON(cs []cairn.ListChange) []wire.VersionChange {
	out := make([]wire.VersionChange, len(cs))
	for i, ch := range cs {
		e := ch.Entry
		out[i] = wire.VersionChange{Address: e.Address, Category: e.Category, Change: map[bool]string{true: "added", false: "removed"}[ch.Listed],
			EntityID: e.EntityID, EntityName: e.EntityName, Family: e.Family, Source: e.Source}
	}
	return out
}
