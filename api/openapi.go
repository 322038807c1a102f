package api

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/openapi"
	"github.com/gin-gonic/gin"
)

// OpenAPIDocument returns the OpenAPI 3.1 document served at
// GET /v1/openapi.json, as JSON. The caller must not modify it. It panics
// when the embedded document does not load, which the package's tests rule
// out.
func OpenAPIDocument() []byte { return openapi.Document() }

// docs are the API documents as api serves them, each with its ETag,
// built once from package openapi's (none when they did not load: the
// routes then answer 500).
var docs = servedDocs()

// docAssets are the five representations of the API documents.
type docAssets struct {
	json, skill, skillMD, quick, quickMD asset
}

func servedDocs() docAssets {
	if openapi.Err() != nil {
		return docAssets{}
	}
	const md = "text/markdown; charset=utf-8"
	return docAssets{json: newAsset(openapi.Document(), jsonContentType),
		skill: newAsset(openapi.Skill(true, false), jsonContentType), skillMD: newAsset(openapi.Skill(true, true), md),
		quick: newAsset(openapi.Skill(false, false), jsonContentType), quickMD: newAsset(openapi.Skill(false, true), md)}
}

// asset is a fixed response body with its validator.
type asset struct {
	body        []byte
	contentType string
	etag        string
}

func newAsset(body []byte, contentType string) asset {
	sum := sha256.Sum256(body)
	return asset{body: body, contentType: contentType, etag: `"` + hex.EncodeToString(sum[:16]) + `"`}
}

// openAPI is GET /v1/openapi.json.
func (s *Server) openAPI(c *gin.Context) error {
	if err := openapi.Err(); err != nil {
		return fmt.Errorf("openapi document: %w", err)
	}
	serveAsset(c, docs.json)
	return nil
}

// skillOffers are the representations of GET /v1/skill, the default first.
var skillOffers = []string{"application/json", "text/markdown"}

// skill is GET /v1/skill: JSON unless the Accept header prefers Markdown.
func (s *Server) skill(c *gin.Context) error {
	c.Header("Vary", "Accept")
	if err := openapi.Err(); err != nil {
		return fmt.Errorf("openapi document: %w", err)
	}
	full, err := strconv.ParseBool(c.DefaultQuery("full", "false"))
	if err != nil {
		return cairn.Errorf(cairn.EINVALID, "full must be true (the full reference) or false (the short guide, the default).").With("field", "full")
	}
	md := negotiate(c.GetHeader("Accept"), skillOffers) == "text/markdown"
	switch {
	case full && md:
		serveAsset(c, docs.skillMD)
	case full:
		serveAsset(c, docs.skill)
	case md:
		serveAsset(c, docs.quickMD)
	default:
		serveAsset(c, docs.quick)
	}
	return nil
}

// serveAsset writes a with its ETag and caching headers, or 304 when the
// request's If-None-Match names the ETag.
func serveAsset(c *gin.Context, a asset) {
	h := c.Writer.Header()
	h.Set("ETag", a.etag)
	h.Set("Cache-Control", "public, max-age=300, must-revalidate")
	if etagMatch(c.GetHeader("If-None-Match"), a.etag) {
		c.Status(http.StatusNotModified)
		c.Writer.WriteHeaderNow()
		return
	}
	c.Data(http.StatusOK, a.contentType, a.body)
}

// etagMatch reports whether an If-None-Match value matches etag, with the
// weak comparison RFC 9110 section 13.1.2 prescribes for it.
func etagMatch(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == etag {
			return true
		}
	}
	return false
}
