package cairn

import (
	"encoding/json"
	"slices"
	"strings"
)

// Programs is the sanctions programs under which a source lists an entity
// (OFAC codes such as DPRK3 or CYBER2), in the order the source names
// them, each once, held as one string (one code per line) so that a Match
// and a ListEntry stay comparable: a listing's match is a map key, and
// listings and entries are compared with ==. The empty Programs is none
// (a plain list, a community report, an entry stored before programs were
// kept). In JSON it is an array of strings.
type Programs string

// programSep separates the codes of a Programs; no code holds it
// (ProgramsOf cuts a code at it).
const programSep = "\n"

// ProgramsOf returns the codes as Programs: each trimmed, the empty ones
// and repeats dropped, a code holding a line break cut at it.
func ProgramsOf(codes []string) Programs {
	var b strings.Builder
	var seen []string
	for _, c := range codes {
		c, _, _ = strings.Cut(strings.TrimSpace(c), programSep)
		if c = strings.TrimSpace(c); c == "" || slices.Contains(seen, c) {
			continue
		}
		if b.Len() > 0 {
			b.WriteString(programSep)
		}
		b.WriteString(c)
		seen = append(seen, c)
	}
	return Programs(b.String())
}

// List returns the codes, nil when there are none.
func (p Programs) List() []string {
	if p == "" {
		return nil
	}
	return strings.Split(string(p), programSep)
}

// AppendJSON appends p as a JSON array of strings, escaped as
// encoding/json escapes them.
func (p Programs) AppendJSON(b []byte) []byte {
	b = append(b, '[')
	for i, c := range p.List() {
		if i > 0 {
			b = append(b, ',')
		}
		q, _ := json.Marshal(c)
		b = append(b, q...)
	}
	return append(b, ']')
}

// MarshalJSON writes p as an array of strings.
func (p Programs) MarshalJSON() ([]byte, error) { return p.AppendJSON(nil), nil }

// UnmarshalJSON reads an array of strings (null: none).
func (p *Programs) UnmarshalJSON(b []byte) error {
	var codes []string
	if err := json.Unmarshal(b, &codes); err != nil {
		return err
	}
	*p = ProgramsOf(codes)
	return nil
}
