package openapi

import (
	"fmt"
	"strings"
)

// renderSkillMarkdown renders the skill as Markdown for agents that read
// prose.
func renderSkillMarkdown(sk *skillDoc) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s %s\n\n%s\n\n", sk.Name, sk.Version, sk.Description)
	fmt.Fprintf(&b, "- Base path: `%s`\n- Full OpenAPI 3.1 document: `GET %s`\n- Live prices: `GET %s` (one credit is %g USD)\n\n",
		sk.BasePath, sk.OpenAPI, sk.Pricing.Endpoint, sk.Pricing.CreditPriceUSD)
	b.WriteString("## Authentication\n\n")
	for _, a := range sk.Auth {
		format := ""
		if a.Format != "" {
			format = " (" + a.Format + ")"
		}
		fmt.Fprintf(&b, "- `%s`: HTTP %s%s. %s\n", a.Name, a.Scheme, format, a.Description)
	}
	fmt.Fprintf(&b, "\n## Costs\n\n%s\n\n", sk.Pricing.Note)
	fmt.Fprintf(&b, "## Errors\n\nErrors are `%s` documents:\n\n", sk.Errors.ContentType)
	fieldTable(&b, sk.Errors.Fields)
	fmt.Fprintf(&b, "\nCodes: `%s`.\n\n## Endpoints\n", strings.Join(sk.Errors.Codes, "`, `"))
	for i := range sk.Endpoints {
		endpointMarkdown(&b, &sk.Endpoints[i])
	}
	return []byte(b.String())
}

// endpointMarkdown renders one endpoint: a heading, a line with its
// summary, auth and cost, its description, parameters, request body and
// responses.
func endpointMarkdown(b *strings.Builder, ep *skillEndpoint) {
	fmt.Fprintf(b, "\n### %s %s\n\n%s.", ep.Method, ep.Path, strings.TrimSuffix(ep.Summary, "."))
	auth := "none"
	if len(ep.Auth) > 0 {
		auth = "`" + strings.Join(ep.Auth, "` or `") + "`"
	}
	fmt.Fprintf(b, " Auth: %s", auth)
	if ep.AuthNote != "" && ep.AuthNote != "none" {
		fmt.Fprintf(b, " (%s)", ep.AuthNote)
	}
	cost := "free"
	if ep.Cost != nil {
		cost = fmt.Sprintf("%d credits (`%s`)", ep.Cost.Credits, ep.Cost.Operation)
	}
	fmt.Fprintf(b, ". Cost: %s.\n\n", cost)
	if ep.Description != "" {
		fmt.Fprintf(b, "%s\n\n", ep.Description)
	}
	parametersMarkdown(b, ep.Parameters)
	if rb := ep.RequestBody; rb != nil {
		req := "optional"
		if rb.Required {
			req = "required"
		}
		fmt.Fprintf(b, "Request body (`%s`, %s):\n\n", rb.ContentType, req)
		fieldTable(b, rb.Fields)
		b.WriteString("\n")
	}
	responsesMarkdown(b, ep.Responses)
}

// parametersMarkdown renders an endpoint's parameters as a table, nothing
// when it has none.
func parametersMarkdown(b *strings.Builder, ps []skillParam) {
	if len(ps) == 0 {
		return
	}
	b.WriteString("Parameters:\n\n| Name | In | Type | Required | Description |\n|---|---|---|---|---|\n")
	for _, p := range ps {
		fmt.Fprintf(b, "| `%s` | %s | %s | %s | %s |\n", p.Name, p.In, cell(p.Type), yesNo(p.Required), cell(p.Description))
	}
	b.WriteString("\n")
}

// responsesMarkdown renders an endpoint's responses as a list: status,
// problem code, content types and description, then the fields of a
// JSON success.
func responsesMarkdown(b *strings.Builder, rs []skillResponse) {
	b.WriteString("Responses:\n\n")
	for _, r := range rs {
		fmt.Fprintf(b, "- `%s`", r.Status)
		if r.Code != "" {
			fmt.Fprintf(b, " `%s`", r.Code)
		}
		if len(r.ContentTypes) > 0 {
			fmt.Fprintf(b, " (%s)", strings.Join(r.ContentTypes, ", "))
		}
		fmt.Fprintf(b, ": %s\n", oneLine(r.Description))
		if len(r.Fields) > 0 {
			b.WriteString("\n")
			fieldTable(b, r.Fields)
			b.WriteString("\n")
		}
	}
}

func fieldTable(b *strings.Builder, fs []skillField) {
	if len(fs) == 0 {
		b.WriteString("(no fields)\n")
		return
	}
	b.WriteString("| Field | Type | Required | Description |\n|---|---|---|---|\n")
	for _, f := range fs {
		fmt.Fprintf(b, "| `%s` | %s | %s | %s |\n", f.Name, cell(f.Type), yesNo(f.Required), cell(f.Description))
	}
}

func yesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}

// oneLine folds a text onto one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// cell makes a text safe in a Markdown table cell.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;").Replace(oneLine(s))
}
