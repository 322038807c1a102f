package compliance

import (
	"context"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/screening"
	"github.com/cairn-dev/cairn/store"
)

// CommunityListings turns the escalated addresses of rs into listings of
// the community source (for ingest.Pipeline.Community).
func CommunityListings(rs store.Reports) func(ctx context.Context) ([]screening.Listing, error) {
	return func(ctx context.Context) ([]screening.Listing, error) {
		esc, err := rs.Escalations(ctx)
		if err != nil {
			return nil, err
		}
		out := make([]screening.Listing, len(esc))
		for i, e := range esc {
			out[i] = screening.Listing{Family: screening.Family(e.Family), Address: e.Canonical, Match: screening.Match{
				EntityID: e.ReportID, Source: screening.SourceCommunity, Category: e.Category, Severity: "medium"}}
		}
		return out, nil
	}
}

// Counts returns the report statistics of GET /v1/compliance/stats.
func (s *Reports) Counts(ctx context.Context) (cairn.ReportStats, error) {
	return s.Store.CountReports(ctx)
}

// ScreeningCount returns how many screenings were served (totalScreenings).
func (s *Service) ScreeningCount(ctx context.Context) (int64, error) {
	return s.Screenings.ScreeningCount(ctx)
}
