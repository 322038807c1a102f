package store

import (
	"context"

	"github.com/cairn-dev/cairn"
)

// Escalation is an address that enough distinct developer accounts reported.
type Escalation struct {
	Family, Canonical string
	Category          string // of the report that crossed the line
	ReportID          string
	Reporters         int
}

// ReportStats counts community reports.
type ReportStats struct {
	Total      int
	ByStatus   map[string]int
	ByCategory map[string]int
}

// Reports holds community reports.
type Reports interface {
	// AddReport stores r and returns how many distinct developer accounts
	// have now reported its (Family, Canonical) address. When that number
	// reaches threshold for the first time, the report is marked
	// AutoEscalated and the address escalated, in the same commit. A
	// developer reporting the same address again is ECONFLICT.
	AddReport(ctx context.Context, r *cairn.Report, threshold int) (reporters int, err error)

	// Escalations returns every escalated address.
	Escalations(ctx context.Context) ([]Escalation, error)

	// CountReports returns the report statistics.
	CountReports(ctx context.Context) (ReportStats, error)
}
