package compliance

import (
	"context"
	"fmt"
	"strconv"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/chain"
	"github.com/cairn-dev/cairn/screening"
)

// Which list version a proof is given against (the listVersion parameter
// of the proof endpoints).
const (
	AtCurrent  = "current"  // the newest version (also "")
	AtAnchored = "anchored" // the newest version whose roots the chain holds
)

// IndexAt returns the list version a proof request names: "" or
// "current", the current one; "anchored", the newest one whose roots the
// chain holds, so that a proof passes the contract while a newer version
// is still being anchored; or a version number, held by this instance
// (the current one, and while anchoring is on the one it replaced until
// the chain holds a newer one). Anything else is EINVALID on listVersion;
// "anchored" with anchoring off is EINVALID, with nothing anchored yet or
// an anchored version this instance does not hold ECONFLICT; a number not
// held is ENOTFOUND. The answers say which versions are held.
func (s *Service) IndexAt(ctx context.Context, at string) (*screening.Index, error) {
	switch at {
	case "", AtCurrent:
		return s.Screening.Current(), nil
	case AtAnchored:
		return s.anchoredIndex(ctx)
	}
	v, err := strconv.ParseUint(at, 10, 64)
	if err != nil || v == 0 {
		return nil, cairn.Errorf(cairn.EINVALID, "listVersion must be %q, %q or a list version number, not %q.", AtCurrent, AtAnchored, clip(at)).
			With("field", "listVersion")
	}
	if ix, ok := s.Screening.Version(v); ok {
		return ix, nil
	}
	return nil, cairn.Errorf(cairn.ENOTFOUND, "List version %d is not held by this service (it holds %s); ask for %q or %q.",
		v, held(s.Screening), AtCurrent, AtAnchored).With("field", "listVersion")
}

// anchoredIndex is the held index whose roots are those of the newest
// version the chain holds. An index renumbered from it (a version whose
// roots did not change, never sent) answers for it as well. Finding the
// current index anchored lets go of the one kept for the chain.
func (s *Service) anchoredIndex(ctx context.Context) (*screening.Index, error) {
	if s.Anchorer == nil {
		return nil, cairn.Errorf(cairn.EINVALID, "Anchoring is off on this service: no list version is anchored; leave listVersion out.").
			With("field", "listVersion")
	}
	st, ok, err := s.Anchorer.Synced(ctx)
	if err != nil {
		s.Logger.ErrorContext(ctx, "reading the anchored version failed", "err", err)
		return nil, cairn.Errorf(cairn.EUPSTREAM, "The anchored list version could not be read; try again.")
	}
	if !ok {
		return nil, cairn.Errorf(cairn.ECONFLICT, "No list version is anchored on chain yet; leave listVersion out, or try again once merkle-root's anchor is synced.")
	}
	for _, v := range s.Screening.Held() {
		ix, held := s.Screening.Version(v)
		roots := chain.RootsOf(st)
		if held && ix.Root() == roots.Sanctions && ix.CommunityRoot() == roots.Community &&
			ix.ExclusionRoot() == roots.Exclusion && ix.CommunityExclusionRoot() == roots.CommunityExclusion {
			if ix == s.Screening.Current() {
				s.Screening.Release(ix.Version)
			}
			return ix, nil
		}
	}
	return nil, cairn.Errorf(cairn.ECONFLICT, "The anchored list version %d is not held by this service (it holds %s); leave listVersion out, or try again once the current version is anchored.",
		st.ListVersion, held(s.Screening))
}

// held names the versions h answers for.
func held(h *screening.Holder) string {
	vs := h.Held()
	out := ""
	for i, v := range vs {
		if i > 0 {
			out += " and "
		}
		out += fmt.Sprint(v)
	}
	return out
}
