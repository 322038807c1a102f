package api

import (
	"net/http"
	"strconv"

	"github.com/cairn-dev/cairn"
	"github.com/gin-gonic/gin"
)

// listingEvent is one change of an address's listing history.
type listingEvent struct {
	Version    uint64 `json:"listVersion"`
	At         string `json:"at"`
	Event      string `json:"event"` // listed or delisted
	Source     string `json:"source"`
	EntityID   string `json:"entityId"`
	EntityName string `json:"entityName"`
	Category   string `json:"category"`
}

// listingHistory is GET /v1/compliance/history?address=&chain=: when each
// source listed and delisted the address (free).
func (s *Server) listingHistory(c *gin.Context) error {
	addr, chain, fam, canon, err := s.addressQuery(c)
	if err != nil {
		return err
	}
	events := []listingEvent{}
	if s.Ingest != nil {
		hist, err := s.Ingest.History(c.Request.Context(), fam, canon)
		if err != nil {
			return err
		}
		for _, h := range hist {
			ev := map[bool]string{true: "listed", false: "delisted"}[h.Listed]
			events = append(events, listingEvent{Version: h.Version, At: timestamp(h.At), Event: ev, Source: h.Entry.Source,
				EntityID: h.Entry.EntityID, EntityName: h.Entry.EntityName, Category: h.Entry.Category})
		}
	}
	ix := s.Compliance.Screening.Current()
	writeJSON(c, http.StatusOK, gin.H{"address": addr, "chain": chain, "family": fam, "canonicalAddress": canon,
		"listed": len(ix.Lookup(fam, canon)) > 0, "listVersion": ix.Version, "events": events})
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
	out := make([]gin.H, len(vs))
	for i, v := range vs {
		out[i] = gin.H{"listVersion": v.Version, "builtAt": timestamp(v.BuiltAt), "root": v.Root, "leafCount": v.Leaves,
			"sanctionsRoot": nilIfEmpty(v.SanctionsRoot), "communityRoot": nilIfEmpty(v.CommunityRoot), "communityLeafCount": v.CommunityLeaves,
			"entries": v.Entries, "added": v.Added, "removed": v.Removed, "sources": sourcesJSON(v.Sources)}
	}
	var nextBefore any
	last := ""
	if len(vs) == pg.Limit && vs[len(vs)-1].Version > 1 { // versions are numbered from 1 without gaps
		nextBefore, last = vs[len(vs)-1].Version, strconv.FormatUint(vs[len(vs)-1].Version, 10)
	}
	writeJSON(c, http.StatusOK, gin.H{"versions": out, "limit": pg.Limit, "nextCursor": s.next(pg, last),
		"hasMore": last != "", "nextBefore": nextBefore})
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
func sourcesJSON(m map[string]cairn.SourceVersion) gin.H {
	out := gin.H{}
	for name, sv := range m {
		src := gin.H{"entries": sv.Entries, "sha256": nilIfEmpty(sv.SHA256), "blobName": nilIfEmpty(sv.BlobName),
			"fetchedAt": nil, "lastError": nilIfEmpty(sv.LastError), "failedAt": nil}
		if !sv.FetchedAt.IsZero() {
			src["fetchedAt"] = timestamp(sv.FetchedAt)
		}
		if !sv.FailedAt.IsZero() {
			src["failedAt"] = timestamp(sv.FailedAt)
		}
		if sv.Bundled {
			src["bundled"], src["sourceSha256"], src["snapshotDate"] = true, sv.SourceSHA256, sv.SnapshotDate
		}
		out[name] = src
	}
	return out
}
