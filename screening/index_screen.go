package screening

import (
	"fmt"
	"slices"
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
	out, _, err := ix.screen(qs, includeCommunity, nil, nil, false)
	return out, err
}

// ScreenLocated is Screen that also tells where each address is in the
// index (loc[i] for qs[i]; the zero Located for an invalid address), for
// the screening's multiproofs (MultiProofAtBelow,
// ExclusionMultiProofAtBelow), which then look no address up again. The
// results and locations are written to out and loc, grown to len(qs):
// buffers the caller may use again once it is done with both.
func (ix *Index) ScreenLocated(qs []Query, includeCommunity bool, out []Result, loc []Located) ([]Result, []Located, error) {
	return ix.screen(qs, includeCommunity, out, loc, true)
}

func (ix *Index) screen(qs []Query, includeCommunity bool, out []Result, loc []Located, locate bool) ([]Result, []Located, error) {
	out = slices.Grow(out[:0], len(qs))[:len(qs)]
	if locate {
		loc = slices.Grow(loc[:0], len(qs))[:len(qs)]
	}
	for i, q := range qs {
		f, err := ChainFamily(q.Chain)
		if err != nil {
			return nil, nil, UnknownChain(fmt.Sprintf("addresses[%d].chain", i), q.Chain)
		}
		r := Result{Address: q.Address, Chain: q.Chain, Family: f, Matches: []Match{}, Checksum: "none"}
		canon, st := Normalize(f, q.Address)
		switch st {
		case StatusInvalid:
			r.Status = StatusInvalidAddress
			out[i] = r
			if locate {
				loc[i] = Located{}
			}
			continue
		case StatusBadChecksum:
			r.Checksum = "invalid"
		default:
			if f == EVM && mixedCase(q.Address) {
				r.Checksum = "valid"
			}
		}
		r.Canonical, r.Status = canon, StatusClear
		l := ix.entries.locate(f, canon)
		var ms []Match
		if l.found {
			ms = ix.entries.matches(l.e)
		}
		if locate {
			loc[i] = l
		}
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
	return out, loc, nil
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
