package api

import (
	"net/http"
	"strconv"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
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
	ix := s.CurrentList.Current()
	writeJSON(c, http.StatusOK, gin.H{"address": addr, "chain": chain, "family": fam, "canonicalAddress": canon,
		"listed": len(ix.Lookup(fam, canon)) > 0, "listVersion": ix.Version, "events": events})
	return nil
}

// listVersions is GET /v1/compliance/versions?before=&limit=: the list
// versions, newest first, with their added and removed counts and the
// state of each source (free).
func (s *Server) listVersions(c *gin.Context) error {
	limit, before := 20, uint64(0)
	if v := c.Query("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			return cairn.Errorf(cairn.EINVALID, "limit must be 1 to 100.").With("field", "limit")
		}
		limit = n
	}
	if v := c.Query("before"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil || n == 0 {
			return cairn.Errorf(cairn.EINVALID, "before must be a list version.").With("field", "before")
		}
		before = n
	}
	vs := []store.ListVersion{}
	if s.Ingest != nil {
		var err error
		if vs, err = s.Ingest.Versions(c.Request.Context(), before, limit); err != nil {
			return err
		}
	}
	out := make([]gin.H, len(vs))
	for i, v := range vs {
		out[i] = gin.H{"listVersion": v.Version, "builtAt": timestamp(v.BuiltAt), "root": v.Root, "leafCount": v.Leaves,
			"sanctionsRoot": nilIfEmpty(v.SanctionsRoot), "communityRoot": nilIfEmpty(v.CommunityRoot), "communityLeafCount": v.CommunityLeaves,
			"entries": v.Entries, "added": v.Added, "removed": v.Removed, "sources": sourcesJSON(v.Sources)}
	}
	var next any
	if len(vs) == limit && vs[len(vs)-1].Version > 1 {
		next = vs[len(vs)-1].Version
	}
	writeJSON(c, http.StatusOK, gin.H{"versions": out, "nextBefore": next})
	return nil
}

// sourcesJSON renders the per-source state of a list version.
func sourcesJSON(m map[string]store.SourceVersion) gin.H {
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

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func clip(s string) string {
	if len(s) > 64 {
		return s[:64]
	}
	return s
}
