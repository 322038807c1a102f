package screening

import (
	"fmt"
	"strings"
)

// Query is one address to screen.
type Query struct {
	Address string `json:"address"`
	Chain   string `json:"chain"`
}

// Result is the screening of one address (spec 2.4).
type Result struct {
	Address   string  `json:"address"`
	Chain     string  `json:"chain"`
	Status    string  `json:"status"`
	Family    Family  `json:"family"`
	Canonical string  `json:"canonicalAddress"`
	Checksum  string  `json:"checksum"` // "valid", "invalid" (EIP-55 mismatch, still screened) or "none"
	Matches   []Match `json:"matches"`  // may be shared with the index: read-only
}

// Screen screens a batch. An unknown chain fails the whole batch with
// EINVALID naming it; an invalid address gets its own status.
func (ix *Index) Screen(qs []Query, includeCommunity bool) ([]Result, error) {
	out := make([]Result, len(qs))
	for i, q := range qs {
		f, err := ChainFamily(q.Chain)
		if err != nil {
			return nil, UnknownChain(fmt.Sprintf("addresses[%d].chain", i), q.Chain)
		}
		r := Result{Address: q.Address, Chain: q.Chain, Family: f, Matches: []Match{}, Checksum: "none"}
		canon, st := Normalize(f, q.Address)
		switch st {
		case StatusInvalid:
			r.Status = StatusInvalidAddress
			out[i] = r
			continue
		case StatusBadChecksum:
			r.Checksum = "invalid"
		default:
			if f == EVM && mixedCase(q.Address) {
				r.Checksum = "valid"
			}
		}
		r.Canonical, r.Status = canon, StatusClear
		ms := ix.Lookup(f, canon)
		community := 0
		for _, m := range ms {
			if m.Source == SourceCommunity {
				community++
			}
		}
		switch {
		case len(ms) == 0:
		case community < len(ms):
			r.Status = StatusSanctioned
		case includeCommunity:
			r.Status = StatusFlagged
		}
		if includeCommunity || community == 0 {
			r.Matches = ms[:len(ms):len(ms)] // shared with the index, read-only
		} else {
			r.Matches = make([]Match, 0, len(ms)-community)
			for _, m := range ms {
				if m.Source != SourceCommunity {
					r.Matches = append(r.Matches, m)
				}
			}
		}
		if r.Matches == nil {
			r.Matches = []Match{}
		}
		out[i] = r
	}
	return out, nil
}

// mixedCase reports whether s has both upper- and lower-case letters, i.e.
// carries an EIP-55 checksum.
func mixedCase(s string) bool {
	s = strings.TrimSpace(s)
	if len(s) > 2 && (s[:2] == "0x" || s[:2] == "0X") {
		s = s[2:]
	}
	return strings.ToLower(s) != s && strings.ToUpper(s) != s
}

func clipText(s string) string {
	if len(s) > 64 {
		return s[:64]
	}
	return s
}
