package openapi

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestDocumentLoads(t *testing.T) {
	if loadErr != nil {
		t.Fatalf("openapi document: %v", loadErr)
	}
}

// TestSkillCoversDocument checks that both forms of the skill list every
// operation of the document, with its cost.
func TestSkillCoversDocument(t *testing.T) {
	if loadErr != nil {
		t.Fatal(loadErr)
	}
	var sk skillDoc
	if err := json.Unmarshal(apiDoc.skill, &sk); err != nil {
		t.Fatalf("skill JSON: %v", err)
	}
	byOp := map[string]skillEndpoint{}
	for _, ep := range sk.Endpoints {
		byOp[ep.Method+" "+ep.Path] = ep
	}
	md := string(apiDoc.skillMD)
	n := 0
	for path, item := range apiDoc.doc.Paths.Map() {
		for method, op := range item.Operations() {
			n++
			name := method + " " + path
			t.Run(name, func(t *testing.T) {
				ep, ok := byOp[name]
				if !ok {
					t.Fatal("missing from the skill JSON")
				}
				if ep.OperationID != op.OperationID || ep.Summary != op.Summary || len(ep.Responses) != op.Responses.Len() {
					t.Fatalf("skill entry %+v does not reflect the operation", ep)
				}
				cost, priced := op.Extensions["x-cairn-cost"].(map[string]any)
				heading := "\n### " + name + "\n"
				i := strings.Index(md, heading)
				if i < 0 {
					t.Fatalf("Markdown has no heading %q", strings.TrimSpace(heading))
				}
				section := md[i+len(heading):]
				section = section[:strings.Index(section+"\n### ", "\n### ")]
				switch {
				case priced && (ep.Cost == nil || ep.Cost.Operation != cost["operation"] || float64(ep.Cost.Credits) != cost["credits"]):
					t.Fatalf("cost %+v, document says %v", ep.Cost, cost)
				case !priced && ep.Cost != nil:
					t.Fatalf("cost %+v on a free operation", ep.Cost)
				case priced && !strings.Contains(section, fmt.Sprintf("Cost: %d credits (`%s`)", ep.Cost.Credits, ep.Cost.Operation)):
					t.Fatalf("Markdown section does not state the cost:\n%s", section)
				case !priced && !strings.Contains(section, "Cost: free."):
					t.Fatalf("Markdown section does not say free:\n%s", section)
				}
				for _, r := range ep.Responses {
					if !strings.Contains(section, "- `"+r.Status+"`") {
						t.Fatalf("Markdown section lacks response %s", r.Status)
					}
				}
			})
		}
	}
	if n != len(sk.Endpoints) {
		t.Fatalf("skill has %d endpoints, document %d operations", len(sk.Endpoints), n)
	}
}
