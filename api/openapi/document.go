// Package openapi holds the API documents: the OpenAPI 3.1 document,
// merged from its YAML fragments (base.yaml and one paths_<area>.yaml per
// area of api's handlers, merge.go), and the skill derived from it, the
// full reference as JSON and Markdown (skill*.go) beside the short guide
// (skill_quick.md). Every form is built once, at init; package api serves
// them.
//
// It imports no package of the module: the documents describe the HTTP
// API, they do not call it (deps_test.go checks it).
package openapi

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oasdiff/yaml"
)

// document is the parsed OpenAPI document and every representation served
// from it, built once when the package is initialised.
type document struct {
	doc      *openapi3.T
	json     []byte // GET /v1/openapi.json
	skill    []byte // GET /v1/skill?full=true, JSON
	skillMD  []byte // GET /v1/skill?full=true, Markdown
	quick    []byte // GET /v1/skill, JSON: the short guide
	quickMD  []byte // GET /v1/skill, Markdown: the short guide
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

// apiDoc is built at init. The document is embedded, so one that does not
// load is a build defect: the package's tests report loadErr, and api's
// two routes answer 500 rather than the whole service refusing to start.
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
		json:     js,
		skill:    skJSON,
		skillMD:  renderSkillMarkdown(sk),
		quick:    quick,
		quickMD:  quickGuide,
		skillObj: sk,
	}, nil
}

// Document returns the OpenAPI 3.1 document served at
// GET /v1/openapi.json, as JSON. The caller must not modify it. It panics
// when the embedded document does not load, which the package's tests rule
// out.
func Document() []byte {
	if loadErr != nil {
		panic("api: embedded OpenAPI document: " + loadErr.Error())
	}
	return apiDoc.json
}

// Err is the defect of an embedded document that did not load (nil when
// it loaded): the routes that serve it then answer 500.
func Err() error { return loadErr }

// Skill is the skill document served at GET /v1/skill: the short guide,
// or with full the full reference, as JSON or as Markdown. The caller must
// not modify it.
func Skill(full, markdown bool) []byte {
	switch {
	case full && markdown:
		return apiDoc.skillMD
	case full:
		return apiDoc.skill
	case markdown:
		return apiDoc.quickMD
	}
	return apiDoc.quick
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
