package openapi

import (
	"embed"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/oasdiff/yaml"
)

// fragments are the sources of the OpenAPI document: base.yaml (info,
// shared components) and one paths_<area>.yaml per area of api's
// handlers.
//
//go:embed *.yaml
var fragments embed.FS

// mergedSource returns the document as JSON: base.yaml with every other
// fragment merged in, in name order. Two fragments that define the same
// leaf (the same path and method, or the same schema) are a build defect
// reported with its location.
func mergedSource() ([]byte, error) {
	names, err := fragments.ReadDir(".")
	if err != nil {
		return nil, err
	}
	var order []string
	for _, e := range names {
		if e.Name() != "base.yaml" {
			order = append(order, e.Name())
		}
	}
	slices.Sort(order)
	order = append([]string{"base.yaml"}, order...)
	doc := map[string]any{}
	for _, name := range order {
		src, err := fragments.ReadFile(name)
		if err != nil {
			return nil, err
		}
		js, err := yaml.YAMLToJSON(src)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		var frag map[string]any
		if err := json.Unmarshal(js, &frag); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if err := mergeInto(doc, frag, name, ""); err != nil {
			return nil, err
		}
	}
	return json.Marshal(doc)
}

// mergeInto adds src's members to dst, recursing into objects.
func mergeInto(dst, src map[string]any, file, at string) error {
	for k, v := range src {
		where := at + "/" + k
		old, exists := dst[k]
		if !exists {
			dst[k] = v
			continue
		}
		om, ok1 := old.(map[string]any)
		nm, ok2 := v.(map[string]any)
		if !ok1 || !ok2 {
			return fmt.Errorf("%s: %s is defined twice", file, where)
		}
		if err := mergeInto(om, nm, file, where); err != nil {
			return err
		}
	}
	return nil
}
