package store

import (
	"context"

	"github.com/cairn-dev/cairn"
)

// Anchors holds the anchor records of list versions, per target.
type Anchors interface {
	// CreateAnchor stores a new record. It fails with ECONFLICT, writing
	// nothing, when the target already has a record of a.ListVersion or of
	// a newer version: records only ever move forward.
	CreateAnchor(ctx context.Context, a cairn.Anchor) error

	// UpdateAnchor runs fn on the record of (target, version) inside the
	// backend's transaction and stores the result when fn returns nil
	// (fn's error is returned as is). Target and ListVersion cannot
	// change. ENOTFOUND when there is no such record.
	UpdateAnchor(ctx context.Context, target string, version uint64, fn func(*cairn.Anchor) error) (cairn.Anchor, error)

	// ListAnchors returns up to limit records of the target with a version
	// below before (0: from the newest), newest first.
	ListAnchors(ctx context.Context, target string, before uint64, limit int) ([]cairn.Anchor, error)
}

// LatestAnchor returns the target's newest record, ENOTFOUND when none.
func LatestAnchor(ctx context.Context, s Anchors, target string) (cairn.Anchor, error) {
	as, err := s.ListAnchors(ctx, target, 0, 1)
	if err != nil {
		return cairn.Anchor{}, err
	} else if len(as) == 0 {
		return cairn.Anchor{}, cairn.Errorf(cairn.ENOTFOUND, "No list version was anchored yet.")
	}
	return as[0], nil
}
