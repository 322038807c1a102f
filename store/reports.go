package store

import (
	"context"

	"github.com/cairn-dev/cairn"
)

// Reports holds community reports.
type Reports interface {
	// AddReport stores r and returns how many distinct developer accounts
	// now count toward the escalation of its (Family, Canonical) address:
	// those whose report was Established and not since rejected. When that
	// number reaches threshold and the address is not escalated, the
	// report is marked AutoEscalated and the address escalated, in the same
	// commit; a report of an escalated address changes no escalation. A
	// developer reporting the same address again is ECONFLICT.
	AddReport(ctx context.Context, r *cairn.Report, threshold int) (reporters int, err error)

	// Report returns a report by id (ENOTFOUND when unknown).
	Report(ctx context.Context, id string) (*cairn.Report, error)

	// ListReports returns up to limit reports with the status (any when
	// empty) whose id is below beforeID (empty: from the newest), newest
	// first.
	ListReports(ctx context.Context, status, beforeID string, limit int) ([]cairn.Report, error)

	// Moderate applies an administrator's decision to every report of an
	// address, in one commit. ModerationConfirm escalates the address (its
	// escalation names byReport, a report of the address) and confirms its
	// reports that are not rejected; ModerationReject and ModerationDelist
	// remove the escalation, reject every report and stop them counting, so
	// that only later reports can escalate the address again. It returns
	// the reports it changed and whether the escalation changed; an address
	// with no report is ENOTFOUND.
	Moderate(ctx context.Context, family, canonical, byReport string, m cairn.Moderation) (changed []cairn.Report, escalationChanged bool, err error)

	// Escalations returns every escalated address.
	Escalations(ctx context.Context) ([]cairn.Escalation, error)

	// CountReports returns the report statistics.
	CountReports(ctx context.Context) (cairn.ReportStats, error)
}
