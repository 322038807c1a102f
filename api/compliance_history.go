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
