package api

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/billing"
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
	if err := json.Unmarshal(apiDoc.skill.body, &sk); err != nil {
		t.Fatalf("skill JSON: %v", err)
	}
	byOp := map[string]skillEndpoint{}
	for _, ep := range sk.Endpoints {
		byOp[ep.Method+" "+ep.Path] = ep
	}
	md := string(apiDoc.skillMD.body)
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
	if ep := byOp["POST /v1/agents"]; ep.Cost == nil || ep.Cost.Credits != billing.DefaultCosts()[billing.OpAgentCreate] {
		t.Fatalf("POST /v1/agents cost = %+v", ep.Cost)
	}
}

func TestNegotiate(t *testing.T) {
	const js, md = "application/json", "text/markdown"
	cases := []struct{ accept, want string }{
		{"", js},
		{"text/markdown", md},
		{"TEXT/Markdown; charset=utf-8", md},
		{"application/json", js},
		{"*/*", js},
		{"text/*", md},
		{"application/*", js},
		{"text/markdown, application/json", js},
		{"text/markdown;q=1, application/json;q=0.9", md},
		{"application/json;q=0.5, text/markdown", md},
		{"text/markdown;q=0", js},
		{"text/markdown;q=0, */*", js},
		{"text/*;q=0.1, text/markdown;q=0", js},
		{"*/*;q=0.1, text/markdown", md},
		{"text/html", js},
		{"image/png, text/plain", js},
		{"text/markdown;q=abc", js},
		{"text/markdown;q=2", js},
		{"garbage, ,;;, text/markdown", md},
		{"*/markdown", js},
		{"text/markdown;level=1;q=0.8, application/json;q=0.7", md},
	}
	for _, tc := range cases {
		t.Run(tc.accept, func(t *testing.T) {
			if got := negotiate(tc.accept, skillOffers); got != tc.want {
				t.Fatalf("negotiate(%q) = %q, want %q", tc.accept, got, tc.want)
			}
		})
	}
}

// FuzzNegotiate: any Accept header gets one of the offers, and adding a
// lower-priority range for an offer never changes a Markdown answer.
func FuzzNegotiate(f *testing.F) {
	for _, s := range []string{"", "text/markdown", "*/*;q=0.5, text/markdown;q=0.7", "a/b;q=", ";;,,", "text/*;q=0.001"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, accept string) {
		got := negotiate(accept, skillOffers)
		if got != skillOffers[0] && got != skillOffers[1] {
			t.Fatalf("negotiate(%q) = %q", accept, got)
		}
		if got == "text/markdown" && quality(parseAccept(accept), got) <= 0 {
			t.Fatalf("negotiate(%q) chose Markdown with q 0", accept)
		}
	})
}

func TestETagMatch(t *testing.T) {
	const etag = `"abc"`
	for _, tc := range []struct {
		header string
		want   bool
	}{
		{`"abc"`, true}, {`W/"abc"`, true}, {`"x", "abc"`, true}, {"*", true},
		{"", false}, {`"abcd"`, false}, {`abc`, false},
	} {
		t.Run(tc.header, func(t *testing.T) {
			if got := etagMatch(tc.header, etag); got != tc.want {
				t.Fatalf("etagMatch(%q) = %v", tc.header, got)
			}
		})
	}
}
