package api

import (
	_ "embed"
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

// openAPI is GET /v1/openapi.json.
func (s *Server) openAPI(c *gin.Context) error {
	if err := openapi.Err(); err != nil {
		return fmt.Errorf("openapi document: %w", err)
	}
	serveAsset(c, openapi.JSON())
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
	serveAsset(c, openapi.Skill(full, md))
	return nil
}

// serveAsset writes a with its ETag and caching headers, or 304 when the
// request's If-None-Match names the ETag.
func serveAsset(c *gin.Context, a openapi.Asset) {
	h := c.Writer.Header()
	h.Set("ETag", a.ETag)
	h.Set("Cache-Control", "public, max-age=300, must-revalidate")
	if etagMatch(c.GetHeader("If-None-Match"), a.ETag) {
		c.Status(http.StatusNotModified)
		c.Writer.WriteHeaderNow()
		return
	}
	c.Data(http.StatusOK, a.ContentType, a.Body)
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
