package compliance

import (
	"context"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/chain"
	"github.com/cairn-dev/cairn/merkle"
)

// AnchorDisabled is Roots.Anchor.Status when no chain is configured.
const AnchorDisabled = chain.AnchorDisabled

// OracleDisabled is Roots.Oracle.Status when the oracle is not kept.
const OracleDisabled = chain.OracleDisabled

// Roots are the current list version's Merkle roots and their anchoring.
type Roots struct {
	SanctionsRoot merkle.Hash
	CommunityRoot merkle.Hash
	// ExclusionRoot and CommunityExclusionRoot are the roots of the
	// exclusion trees, which prove that an address is in neither.
	ExclusionRoot            merkle.Hash
	CommunityExclusionRoot   merkle.Hash
	ListVersion              uint64
	SanctionsLeaves          int
	CommunityLeaves          int
	ExclusionLeaves          int
	CommunityExclusionLeaves int
	BuiltAt                  time.Time // zero before any list version
	// Anchor is the on-chain state of the newest anchored version;
	// Status chain.AnchorDisabled when no chain is configured.
	Anchor cairn.Anchor
	// Confirmations is how many blocks the anchorer waits for before a
	// version is synced (0 without one).
	Confirmations uint64
	// Head is the newest block number the anchorer read while the
	// transaction waited (0 before any): a transaction mined in block b
	// had Head-b+1 confirmations then.
	Head uint64
	// Oracle is the state of the contract's isSanctioned(address)
	// storage; Status chain.OracleDisabled when it is not kept.
	Oracle chain.OracleStatus
}

// Roots returns the current roots (free). A chain or store failure never
// fails it: the anchor then shows status failed with the reason.
func (s *Service) Roots(ctx context.Context) Roots {
	ix := s.Screening.Current()
	out := Roots{SanctionsRoot: ix.Root(), CommunityRoot: ix.CommunityRoot(), ListVersion: ix.Version, BuiltAt: ix.BuiltAt,
		Anchor: cairn.Anchor{Status: chain.AnchorDisabled}, Oracle: chain.OracleStatus{Status: chain.OracleDisabled}}
	out.SanctionsLeaves, out.CommunityLeaves = ix.Leaves()
	out.ExclusionRoot, out.CommunityExclusionRoot = ix.ExclusionRoot(), ix.CommunityExclusionRoot()
	out.ExclusionLeaves, out.CommunityExclusionLeaves = ix.ExclusionLeaves()
	if s.Anchorer == nil {
		return out
	}
	st, err := s.Anchorer.Status(ctx)
	if err != nil {
		s.Logger.ErrorContext(ctx, "reading the anchor status failed", "err", err)
		st = cairn.Anchor{Status: chain.AnchorFailed, Target: st.Target, Error: "The anchor status could not be read."}
	}
	out.Anchor, out.Confirmations, out.Head = st, s.Anchorer.Confirmations(), s.Anchorer.Head()
	if s.Oracle != nil {
		o, err := s.Oracle.OracleStatus(ctx)
		if err != nil {
			s.Logger.ErrorContext(ctx, "reading the oracle status failed", "err", err)
			o = chain.OracleStatus{Status: chain.OracleFailed, ListVersion: o.ListVersion, Error: "The oracle status could not be read."}
		}
		out.Oracle = o
	}
	if st.Status == chain.AnchorSynced {
		// The chain holds this version: no proof is asked against an
		// older one any more.
		s.Screening.Release(st.ListVersion)
	}
	return out
}

// AnchorStatuses and OracleStatuses are every status Roots reports, for
// the metrics that show one of them.
var (
	AnchorStatuses = []string{chain.AnchorDisabled, chain.AnchorPending, chain.AnchorSubmitted, chain.AnchorSynced, chain.AnchorFailed}
	OracleStatuses = []string{chain.OracleDisabled, chain.OracleSyncing, chain.OracleSynced, chain.OracleFailed}
)

// Anchored returns the newest list version the chain holds (status
// synced): 0 when none is yet, or anchoring is off.
func (s *Service) Anchored(ctx context.Context) (uint64, error) {
	if s.Anchorer == nil {
		return 0, nil
	}
	st, ok, err := s.Anchorer.Synced(ctx)
	if err != nil || !ok {
		return 0, err
	}
	return st.ListVersion, nil
}

// AnchorOf returns the anchoring of list version v (its contract,
// transaction and status), and false when anchoring is off or v was never
// submitted.
func (s *Service) AnchorOf(ctx context.Context, v uint64) (cairn.Anchor, bool, error) {
	if s.Anchorer == nil {
		return cairn.Anchor{}, false, nil
	}
	return s.Anchorer.Anchor(ctx, v)
}
