package api

import (
	"bytes"
	"context"
	"encoding/json"
	"html/template"
	"io/fs"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/web"
	"github.com/gin-gonic/gin"
)

// The proof report: GET /v1/compliance/proofs/:screeningId asked for as
// text/html (a browser) is a page that fetches the same document as JSON
// and verifies it with the embedded JavaScript verifier (web/), its
// scripts and styles served under /assets/ from the binary.

// proofOffers are the representations of a stored proof, the default
// first: every Accept that does not prefer HTML gets the JSON document.
var proofOffers = []string{"application/json", "text/html"}

var (
	reportTemplate   = pageTemplate("report", web.ReportHTML)
	notFoundTemplate = pageTemplate("notfound", web.NotFoundHTML)
)

// pageTemplate parses the page src with the head every page starts with.
func pageTemplate(name, src string) *template.Template {
	return template.Must(template.Must(template.New(name).Parse(web.HeadHTML)).Parse(src))
}

// webAssets are the files served under /assets/: web.Assets and the
// verifier bundle, each with its ETag.
var webAssets = sync.OnceValue(func() map[string]asset {
	out := map[string]asset{"cairn-verify.js": newAsset(web.VerifierJS, "text/javascript; charset=utf-8")}
	entries, _ := fs.ReadDir(web.Assets, "assets")
	for _, e := range entries {
		b, err := fs.ReadFile(web.Assets, "assets/"+e.Name())
		if err == nil {
			out[e.Name()] = newAsset(b, mime.TypeByExtension(path.Ext(e.Name())))
		}
	}
	return out
})

// reportPage is what the template shows besides what the page's script
// reads from the document itself: the service's records of the
// document's list version (its sources' dates and its anchoring).
type reportPage struct {
	ID, JSONPath, RPCURL string
	ListVersion          uint64
	Sources              []reportSource
	Anchor               reportAnchor
}

type reportSource struct {
	Name, SHA256, FetchedAt, SnapshotDate string
	Entries                               int
}

type reportAnchor struct {
	ChainID, Block string
	Contract       string
	TxHash, Status string
}

// pageSecurity sets the headers of the pages and their assets: a
// Content-Security-Policy allowing only this origin's scripts and styles
// (no inline ones) and connections to this origin and rpc (the public
// EVM RPC URL, if any), no framing, no referrer, no sniffing.
func pageSecurity(c *gin.Context, rpc string) {
	connect := "'self'"
	if rpc != "" {
		connect += " " + rpc
	}
	h := c.Writer.Header()
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src "+connect+
		"; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
}

// writeReport answers the report page of the proof doc of screening id.
func (s *Server) writeReport(c *gin.Context, id string, doc json.RawMessage) error {
	var head struct {
		ListVersion uint64 `json:"listVersion"`
	}
	_ = json.Unmarshal(doc, &head) // a stored document always decodes; a zero version shows no records
	p := reportPage{ID: id, JSONPath: "/v1/compliance/proofs/" + url.PathEscape(id), RPCURL: s.PublicEVMRPCURL, ListVersion: head.ListVersion}
	var err error
	if p.Sources, err = s.reportSources(c.Request.Context(), head.ListVersion); err != nil {
		return err
	}
	if p.Anchor, err = s.reportAnchor(c.Request.Context(), head.ListVersion); err != nil {
		return err
	}
	return s.writePage(c, http.StatusOK, reportTemplate, p)
}

// writePage answers status with the page tmpl renders from p, under the
// pages' security headers, not to be cached.
func (s *Server) writePage(c *gin.Context, status int, tmpl *template.Template, p reportPage) error {
	var b bytes.Buffer
	if err := tmpl.Execute(&b, p); err != nil {
		return err
	}
	pageSecurity(c, s.PublicEVMRPCURL)
	c.Header("Cache-Control", "no-store")
	c.Data(status, "text/html; charset=utf-8", b.Bytes())
	return nil
}

// reportSources returns the sources of list version v as the service
// recorded them (none without an ingestion pipeline or that version).
func (s *Server) reportSources(ctx context.Context, v uint64) ([]reportSource, error) {
	if s.Ingest == nil || v == 0 {
		return nil, nil
	}
	vs, err := s.Ingest.Versions(ctx, v+1, 1)
	if err != nil || len(vs) == 0 || vs[0].Version != v {
		return nil, err
	}
	var out []reportSource
	for _, name := range slices.Sorted(maps.Keys(vs[0].Sources)) {
		sv := vs[0].Sources[name]
		out = append(out, reportSource{Name: name, SHA256: sv.SHA256, FetchedAt: pageTime(sv.FetchedAt), SnapshotDate: sv.SnapshotDate, Entries: sv.Entries})
	}
	return out, nil
}

// reportAnchor returns the anchoring of list version v (empty when there
// is none).
func (s *Server) reportAnchor(ctx context.Context, v uint64) (reportAnchor, error) {
	st, ok, err := s.Compliance.AnchorOf(ctx, v)
	if err != nil || !ok {
		return reportAnchor{}, err
	}
	a := reportAnchor{ChainID: strconv.FormatUint(st.ChainID(), 10), Contract: st.Contract(), TxHash: st.TxHash, Status: st.Status}
	if st.BlockNumber > 0 {
		a.Block = strconv.FormatUint(st.BlockNumber, 10)
	}
	return a, nil
}

// asset is GET /assets/:name: a file of the pages (no account).
func (s *Server) asset(c *gin.Context) error {
	a, ok := webAssets()[c.Param("name")]
	if !ok {
		return cairn.Errorf(cairn.ENOTFOUND, "No such asset.")
	}
	pageSecurity(c, s.PublicEVMRPCURL)
	serveAsset(c, a)
	return nil
}

func pageTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}
