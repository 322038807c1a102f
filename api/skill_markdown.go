package api

import (
	"fmt"
	"strconv"
	"strings"
)

// skillOffers are the representations of GET /v1/skill, the default first.
var skillOffers = []string{"application/json", "text/markdown"}

// negotiate picks the offer the Accept header prefers (RFC 9110 section
// 12.5.1): each offer gets the q of the most specific media range matching
// it; the highest q wins and ties go to the earlier offer. An empty or
// unparsable header, or one that accepts no offer, gets the first offer:
// the service answers rather than refusing with 406.
func negotiate(accept string, offers []string) string {
	ranges := parseAccept(accept)
	best, bestQ := offers[0], 0.0
	for _, offer := range offers {
		if q := quality(ranges, offer); q > bestQ {
			best, bestQ = offer, q
		}
	}
	return best
}

type mediaRange struct {
	typ, sub string
	q        float64
}

// parseAccept parses an Accept value, dropping malformed ranges.
func parseAccept(accept string) []mediaRange {
	var out []mediaRange
	for _, part := range strings.Split(accept, ",") {
		params := strings.Split(part, ";")
		typ, sub, ok := strings.Cut(strings.ToLower(strings.TrimSpace(params[0])), "/")
		if !ok || typ == "" || sub == "" || (typ == "*" && sub != "*") {
			continue
		}
		r := mediaRange{typ: typ, sub: sub, q: 1}
		for _, p := range params[1:] {
			k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
			if !strings.EqualFold(strings.TrimSpace(k), "q") {
				continue
			}
			q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || q < 0 || q > 1 {
				ok = false
			}
			r.q = q
			break // parameters after q are accept-ext
		}
		if ok {
			out = append(out, r)
		}
	}
	return out
}

// quality is the q the most specific matching range gives offer (0 when
// none matches).
func quality(ranges []mediaRange, offer string) float64 {
	typ, sub, _ := strings.Cut(offer, "/")
	q, spec := 0.0, -1
	for _, r := range ranges {
		s := -1
		switch {
		case r.typ == typ && r.sub == sub:
			s = 2
		case r.typ == typ && r.sub == "*":
			s = 1
		case r.typ == "*":
			s = 0
		}
		if s > spec {
			q, spec = r.q, s
		}
	}
	return q
}

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
	for _, ep := range sk.Endpoints {
		fmt.Fprintf(&b, "\n### %s %s\n\n%s.", ep.Method, ep.Path, strings.TrimSuffix(ep.Summary, "."))
		auth := "none"
		if len(ep.Auth) > 0 {
			auth = "`" + strings.Join(ep.Auth, "` or `") + "`"
		}
		fmt.Fprintf(&b, " Auth: %s", auth)
		if ep.AuthNote != "" && ep.AuthNote != "none" {
			fmt.Fprintf(&b, " (%s)", ep.AuthNote)
		}
		cost := "free"
		if ep.Cost != nil {
			cost = fmt.Sprintf("%d credits (`%s`)", ep.Cost.Credits, ep.Cost.Operation)
		}
		fmt.Fprintf(&b, ". Cost: %s.\n\n", cost)
		if ep.Description != "" {
			fmt.Fprintf(&b, "%s\n\n", ep.Description)
		}
		if len(ep.Parameters) > 0 {
			b.WriteString("Parameters:\n\n| Name | In | Type | Required | Description |\n|---|---|---|---|---|\n")
			for _, p := range ep.Parameters {
				fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", p.Name, p.In, cell(p.Type), yesNo(p.Required), cell(p.Description))
			}
			b.WriteString("\n")
		}
		if rb := ep.RequestBody; rb != nil {
			req := "optional"
			if rb.Required {
				req = "required"
			}
			fmt.Fprintf(&b, "Request body (`%s`, %s):\n\n", rb.ContentType, req)
			fieldTable(&b, rb.Fields)
			b.WriteString("\n")
		}
		b.WriteString("Responses:\n\n")
		for _, r := range ep.Responses {
			fmt.Fprintf(&b, "- `%s`", r.Status)
			if r.Code != "" {
				fmt.Fprintf(&b, " `%s`", r.Code)
			}
			if len(r.ContentTypes) > 0 {
				fmt.Fprintf(&b, " (%s)", strings.Join(r.ContentTypes, ", "))
			}
			fmt.Fprintf(&b, ": %s\n", oneLine(r.Description))
			if len(r.Fields) > 0 {
				b.WriteString("\n")
				fieldTable(&b, r.Fields)
				b.WriteString("\n")
			}
		}
	}
	return []byte(b.String())
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
