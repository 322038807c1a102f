package api

import (
	"strconv"
	"strings"
)

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
