package compliance

import (
	"context"
	"log/slog"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/billing"
	"github.com/cairn-dev/cairn/screening"
	"github.com/cairn-dev/cairn/store"
)

// Community reports (spec 4.19, 3.2).
const (
	// EscalationThreshold is how many distinct established developer
	// accounts must report an address before it enters the community tree.
	EscalationThreshold = 3
	// DefaultMinAccountAge is how old an account that never paid must be
	// (and have used the service) before its reports count.
	DefaultMinAccountAge = 24 * time.Hour
	maxReasonLen         = 2000
	maxEvidence          = 10
	maxModerationReason  = 500
)

// Reports takes community reports and escalates an address into the
// community tree only on the word of established accounts, so that one
// person with many fresh accounts cannot list an address; administrators
// confirm, reject and delist.
type Reports struct {
	Store    store.Reports
	Accounts store.Accounts
	Ledger   store.Ledger
	// Audit receives the reporting agents' entries: each report, and each
	// decision on it. Nil: none are written.
	Audit store.Audit
	// Rebuild makes a change of the escalated addresses take effect (a
	// new list version); nil: at the next scheduled version.
	Rebuild func(ctx context.Context) error
	// MinAccountAge: an account that never paid counts once it is this
	// old and has used the service.
	MinAccountAge time.Duration
	Clock         cairn.Clock
	Logger        *slog.Logger
}

// ReportInput is a community report as a client sends it.
type ReportInput struct {
	Address  string   `json:"address"`
	Chain    string   `json:"chain"`
	Category string   `json:"category"`
	Reason   string   `json:"reason"`
	Evidence []string `json:"evidence"`
}

// Report validates and stores a report of the principal's agent. It counts
// toward escalation when the account is established; the report that
// brings the counting reporters to EscalationThreshold escalates the
// address and a new list version is made at once.
func (s *Reports) Report(ctx context.Context, p Principal, in ReportInput) (*cairn.Report, error) {
	fam, canon, err := in.validate()
	if err != nil {
		return nil, err
	}
	established, err := s.Established(ctx, p.DeveloperID)
	if err != nil {
		return nil, err
	}
	r := &cairn.Report{
		ID: cairn.NewID(), DeveloperID: p.DeveloperID, AgentID: p.AgentID, Address: in.Address, Chain: in.Chain,
		Family: string(fam), Canonical: canon, Category: in.Category, Reason: in.Reason, Evidence: in.Evidence,
		Status: cairn.ReportPending, Established: established, CreatedAt: s.Clock.Now(),
	}
	if _, err := s.Store.AddReport(ctx, r, EscalationThreshold); err != nil {
		return nil, err
	}
	s.audit(ctx, r, cairn.AuditReport, p.RequestID, map[string]any{"family": r.Family, "address": r.Canonical,
		"category": r.Category, "established": r.Established, "autoEscalated": r.AutoEscalated})
	if r.AutoEscalated {
		s.rebuild(ctx, "escalation", r.Family, r.Canonical)
	}
	return r, nil
}

// Established reports whether a developer account's reports count: it has
// paid (a deposit, or credits granted by an administrator), or it is at
// least MinAccountAge old and has used the service (a charge).
func (s *Reports) Established(ctx context.Context, developerID string) (bool, error) {
	dev, err := s.Accounts.Developer(ctx, developerID)
	if err != nil {
		return false, err
	}
	oldEnough := s.Clock.Now().Sub(dev.CreatedAt) >= s.MinAccountAge
	used := false
	var before uint64
	for {
		page, err := s.Ledger.Transactions(ctx, developerID, before, 200)
		if err != nil {
			return false, err
		}
		for _, e := range page {
			switch {
			case e.Kind == cairn.LedgerDeposit && e.Amount > 0,
				e.Kind == cairn.LedgerGrant && e.Operation == billing.OperationAdminGrant && e.Amount > 0:
				return true, nil
			case e.Kind == cairn.LedgerCharge:
				used = true
			}
			if used && oldEnough {
				return true, nil
			}
			before = e.Seq
		}
		if len(page) < 200 || before <= 1 {
			return false, nil
		}
	}
}

// ModerationResult is what a moderation changed.
type ModerationResult struct {
	Family    string
	Canonical string
	Action    string
	// Changed are the reports whose status changed.
	Changed []cairn.Report
	// Escalated says whether the address is in the community tree from
	// the next list version on; TreeChanged whether that is a change.
	Escalated   bool
	TreeChanged bool
}

// Confirm confirms a report and with it its address: the address enters
// the community tree (if it is not there yet) whatever the number of
// reporters, and the address's reports that are not rejected are confirmed.
func (s *Reports) Confirm(ctx context.Context, reportID, reason, requestID string) (*ModerationResult, error) {
	return s.moderateReport(ctx, reportID, cairn.ModerationConfirm, reason, requestID)
}

// Reject rejects a report and with it its address: the address leaves the
// community tree in the next list version and every report of it is
// rejected and stops counting.
func (s *Reports) Reject(ctx context.Context, reportID, reason, requestID string) (*ModerationResult, error) {
	return s.moderateReport(ctx, reportID, cairn.ModerationReject, reason, requestID)
}

// Delist removes an address from the community tree, as Reject does, by
// address.
func (s *Reports) Delist(ctx context.Context, address, chain, reason, requestID string) (*ModerationResult, error) {
	fam, canon, err := ParseAddress(strings.TrimSpace(address), chain)
	if err != nil {
		return nil, err
	}
	return s.moderate(ctx, string(fam), canon, "", cairn.ModerationDelist, reason, requestID)
}

func (s *Reports) moderateReport(ctx context.Context, reportID, action, reason, requestID string) (*ModerationResult, error) {
	if !cairn.ValidID(reportID) {
		return nil, cairn.Errorf(cairn.ENOTFOUND, "No such report.")
	}
	r, err := s.Store.Report(ctx, reportID)
	if err != nil {
		return nil, err
	}
	return s.moderate(ctx, r.Family, r.Canonical, r.ID, action, reason, requestID)
}

func (s *Reports) moderate(ctx context.Context, family, canon, byReport, action, reason, requestID string) (*ModerationResult, error) {
	reason = strings.TrimSpace(reason)
	if len(reason) > maxModerationReason || (reason == "" && action != cairn.ModerationConfirm) {
		return nil, cairn.Errorf(cairn.EINVALID, "reason is required to reject or delist (at most %d bytes).", maxModerationReason).
			With("field", "reason")
	}
	m := cairn.Moderation{Action: action, Reason: reason, RequestID: requestID, At: s.Clock.Now()}
	changed, treeChanged, err := s.Store.Moderate(ctx, family, canon, byReport, m)
	if err != nil {
		return nil, err
	}
	for i := range changed {
		s.audit(ctx, &changed[i], cairn.AuditModeration, requestID, map[string]any{"action": action, "reason": reason,
			"status": changed[i].Status, "family": family, "address": canon})
	}
	s.logger().InfoContext(ctx, "community report moderated", "action", action, "family", family, "address", canon,
		"reports_changed", len(changed), "tree_changed", treeChanged, "request_id", requestID)
	if treeChanged {
		s.rebuild(ctx, action, family, canon)
	}
	return &ModerationResult{Family: family, Canonical: canon, Action: action, Changed: changed,
		Escalated: action == cairn.ModerationConfirm, TreeChanged: treeChanged}, nil
}

// List returns up to limit reports with the status (any when empty),
// older than beforeID, newest first.
func (s *Reports) List(ctx context.Context, status, beforeID string, limit int) ([]cairn.Report, error) {
	if status != "" && !slices.Contains([]string{cairn.ReportPending, cairn.ReportConfirmed, cairn.ReportRejected}, status) {
		return nil, cairn.Errorf(cairn.EINVALID, "status must be pending, confirmed or rejected.").With("field", "status")
	}
	return s.Store.ListReports(ctx, status, beforeID, limit)
}

func (s *Reports) rebuild(ctx context.Context, why, family, canon string) {
	if s.Rebuild == nil {
		return
	}
	// The change is committed: a failed rebuild is retried by the next
	// version, and the client's request has succeeded.
	if err := s.Rebuild(context.WithoutCancel(ctx)); err != nil {
		s.logger().ErrorContext(ctx, "rebuild after a community change failed", "why", why, "family", family,
			"address", canon, "err", err)
	}
}

func (s *Reports) audit(ctx context.Context, r *cairn.Report, action, requestID string, detail map[string]any) {
	if s.Audit == nil || r.AgentID == "" {
		return
	}
	e := &cairn.AuditEntry{AgentID: r.AgentID, Action: action, Resource: r.ID, Detail: detail, RequestID: requestID}
	if err := s.Audit.AppendAudit(context.WithoutCancel(ctx), e); err != nil {
		s.logger().ErrorContext(ctx, "audit of a community report failed", "report_id", r.ID, "err", err)
	}
}

func (s *Reports) logger() *slog.Logger {
	if s.Logger == nil {
		return slog.Default()
	}
	return s.Logger
}

// validate checks the report and returns the address family and canonical
// form (the family is detected when no chain is given).
func (r *ReportInput) validate() (screening.Family, string, error) {
	field := func(f, msg string) error { return cairn.Errorf(cairn.EINVALID, "%s", msg).With("field", f) }
	r.Address, r.Reason = strings.TrimSpace(r.Address), strings.TrimSpace(r.Reason)
	switch {
	case r.Address == "":
		return "", "", field("address", "address is required.")
	case !slices.Contains(cairn.ReportCategories, r.Category):
		return "", "", field("category", "category must be one of "+strings.Join(cairn.ReportCategories, ", ")+".")
	case r.Reason == "" || len(r.Reason) > maxReasonLen:
		return "", "", field("reason", "reason is required (at most 2000 bytes).")
	case len(r.Evidence) > maxEvidence:
		return "", "", field("evidence", "evidence holds at most 10 URLs.")
	}
	for _, e := range r.Evidence {
		u, err := url.Parse(e)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || len(e) > 2048 {
			return "", "", field("evidence", "evidence must be http(s) URLs.")
		}
	}
	families := screening.Families()
	if r.Chain != "" {
		f, err := screening.ChainFamily(r.Chain)
		if err != nil {
			return "", "", field("chain", "unknown chain "+clip(r.Chain)+".")
		}
		families = []screening.Family{f}
	}
	for _, f := range families {
		if canon, st := screening.Normalize(f, r.Address); st != screening.StatusInvalid {
			return f, canon, nil
		}
	}
	return "", "", field("address", "address is not a valid address of the chain.")
}
