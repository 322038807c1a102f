package webhook

import (
	"context"
	"strconv"
	"time"

	"github.com/cairn-dev/cairn"
)

// listVersion is the data of a list.version event.
type listVersion struct {
	ListVersion   uint64    `json:"listVersion"`
	BuiltAt       time.Time `json:"builtAt"`
	Root          string    `json:"root"`
	SanctionsRoot string    `json:"sanctionsRoot,omitempty"`
	CommunityRoot string    `json:"communityRoot,omitempty"`
	Entries       int       `json:"entries"`
	Added         int       `json:"added"`
	Removed       int       `json:"removed"`
}

// ListVersion announces a committed list version, with its counts, to
// every endpoint subscribed to list.version, and wakes the sender for the
// alerts the version recorded.
func (s *Service) ListVersion(ctx context.Context, v cairn.ListVersion) {
	err := s.Emit(ctx, "", cairn.EventListVersion, strconv.FormatUint(v.Version, 10), listVersion{ListVersion: v.Version,
		BuiltAt: v.BuiltAt, Root: v.Root, SanctionsRoot: v.SanctionsRoot, CommunityRoot: v.CommunityRoot, Entries: v.Entries,
		Added: v.Added, Removed: v.Removed})
	if err != nil {
		s.Logger.Error("enqueueing the list.version webhooks failed", "version", v.Version, "err", err)
	}
	s.Wake()
}
