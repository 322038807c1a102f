package openapi

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestMergeInto(t *testing.T) {
	dst := map[string]any{"paths": map[string]any{"/a": map[string]any{"get": 1}}}
	if err := mergeInto(dst, map[string]any{"paths": map[string]any{"/a": map[string]any{"post": 2}, "/b": 3}}, "f.yaml", ""); err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(dst)
	if string(got) != `{"paths":{"/a":{"get":1,"post":2},"/b":3}}` {
		t.Fatalf("merged %s", got)
	}
	err := mergeInto(dst, map[string]any{"paths": map[string]any{"/a": map[string]any{"get": 9}}}, "g.yaml", "")
	if err == nil || !strings.Contains(err.Error(), "g.yaml: /paths//a/get is defined twice") {
		t.Fatalf("duplicate not reported: %v", err)
	}
}

func TestFragmentsMerge(t *testing.T) {
	src, err := mergedSource()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		OpenAPI string         `json:"openapi"`
		Paths   map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(src, &doc); err != nil || doc.OpenAPI != "3.1.0" || doc.Paths["/v1/auth/agent-register"] == nil || doc.Paths["/healthz"] == nil {
		t.Fatalf("merged document: %v %v", doc.OpenAPI, err)
	}
}
