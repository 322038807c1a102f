package api

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/cairn-dev/cairn"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/gin-gonic/gin"
	"github.com/oasdiff/yaml"
)

// document is the parsed OpenAPI document and every representation served
// from it, built once when the package is initialised.
type document struct {
	doc      *openapi3.T
	json     asset // GET /v1/openapi.json
	skill    asset // GET /v1/skill?full=true, JSON
	skillMD  asset // GET /v1/skill?full=true, Markdown
	quick    asset // GET /v1/skill, JSON: the short guide
	quickMD  asset // GET /v1/skill, Markdown: the short guide
	skillObj *skillDoc
}

// quickGuide is the short, agent-first guide GET /v1/skill serves by
// default (at most 10 KB: it must fit in a model's context beside the
// work); the full reference is derived from the document.
//
//go:embed skill_quick.md
var quickGuide []byte

// skillQuick is the JSON form of the short guide: the guide itself as
// Markdown, with where the full reference is.
type skillQuick struct {
	Name        string `json:"name"`
	Version     string `json:"version"`
	Description string `json:"description"`
	BasePath    string `json:"basePath"`
	OpenAPI     string `json:"openapi"`
	Full        string `json:"full"`
	Markdown    string `json:"markdown"`
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

// apiDoc is built at init. The document is embedded, so one that does not
// load is a build defect: the package's tests report loadErr, and the two
// routes answer 500 rather than the whole service refusing to start.
var apiDoc, loadErr = loadFragments()

// loadFragments merges the embedded fragments and loads the result.
func loadFragments() (*document, error) {
	src, err := mergedSource()
	if err != nil {
		return nil, err
	}
	return loadDocument(src)
}

// loadDocument parses the YAML source and derives every representation.
// The JSON is converted from the source itself, so that it holds exactly
// what the source says (extensions and JSON Schema 2020-12 keywords
// included), not what a Go model of OpenAPI retains.
func loadDocument(src []byte) (*document, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(src)
	if err != nil {
		return nil, fmt.Errorf("load: %w", err)
	}
	if !doc.IsOpenAPI31OrLater() {
		return nil, fmt.Errorf("openapi is %q, want 3.1.x", doc.OpenAPI)
	}
	js, err := yaml.YAMLToJSON(src)
	if err != nil {
		return nil, fmt.Errorf("convert to JSON: %w", err)
	}
	sk, err := buildSkill(doc)
	if err != nil {
		return nil, fmt.Errorf("skill: %w", err)
	}
	skJSON, err := marshalCompact(sk)
	if err != nil {
		return nil, fmt.Errorf("skill: %w", err)
	}
	quick, err := marshalCompact(skillQuick{Name: sk.Name, Version: sk.Version, BasePath: sk.BasePath, OpenAPI: sk.OpenAPI,
		Description: "The short guide for agents, as Markdown in `markdown`: register, store, recall, search, files, screening, " +
			"credits and the common errors. The full reference of every endpoint is at `full`.",
		Full: "/v1/skill?full=true", Markdown: string(quickGuide)})
	if err != nil {
		return nil, fmt.Errorf("skill: %w", err)
	}
	return &document{
		doc:      doc,
		json:     newAsset(js, jsonContentType),
		skill:    newAsset(skJSON, jsonContentType),
		skillMD:  newAsset(renderSkillMarkdown(sk), "text/markdown; charset=utf-8"),
		quick:    newAsset(quick, jsonContentType),
		quickMD:  newAsset(quickGuide, "text/markdown; charset=utf-8"),
		skillObj: sk,
	}, nil
}

// OpenAPIDocument returns the OpenAPI 3.1 document served at
// GET /v1/openapi.json, as JSON. The caller must not modify it. It panics
// when the embedded document does not load, which the package's tests rule
// out.
func OpenAPIDocument() []byte {
	if loadErr != nil {
		panic("api: embedded OpenAPI document: " + loadErr.Error())
	}
	return apiDoc.json.body
}

// openAPI is GET /v1/openapi.json.
func (s *Server) openAPI(c *gin.Context) error {
	if loadErr != nil {
		return fmt.Errorf("openapi document: %w", loadErr)
	}
	serveAsset(c, apiDoc.json)
	return nil
}

// skillOffers are the representations of GET /v1/skill, the default first.
var skillOffers = []string{"application/json", "text/markdown"}

// skill is GET /v1/skill: JSON unless the Accept header prefers Markdown.
func (s *Server) skill(c *gin.Context) error {
	c.Header("Vary", "Accept")
	if loadErr != nil {
		return fmt.Errorf("openapi document: %w", loadErr)
	}
	full, err := strconv.ParseBool(c.DefaultQuery("full", "false"))
	if err != nil {
		return cairn.Errorf(cairn.EINVALID, "full must be true (the full reference) or false (the short guide, the default).").With("field", "full")
	}
	md := negotiate(c.GetHeader("Accept"), skillOffers) == "text/markdown"
	switch {
	case full && md:
		serveAsset(c, apiDoc.skillMD)
	case full:
		serveAsset(c, apiDoc.skill)
	case md:
		serveAsset(c, apiDoc.quickMD)
	default:
		serveAsset(c, apiDoc.quick)
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

// marshalCompact encodes v as JSON without HTML escaping, ending in a
// newline.
func marshalCompact(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
