package pebble

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cairn-dev/cairn"
	"github.com/cockroachdb/pebble/v2"
)

// Community report keys, inside the reserved PrefixCompliance:
//
//	scr/r/<reportID>                         Report (JSON)
//	scr/a/<family><canonical><developerID>   report id: one per reporter and address
//	scr/c/<family><canonical><developerID>   empty: a reporter that counts toward escalation
//	                                         (established, not rejected since)
//	scr/e/<family><canonical>                Escalation (JSON)
//	scr/n/stats                              cairn.ReportStats (JSON): the counts of all reports
const (
	reportRec   = PrefixCompliance + "r/"
	reportBy    = PrefixCompliance + "a/"
	reportCount = PrefixCompliance + "c/"
	reportEsc   = PrefixCompliance + "e/"
)

// AddReport stores the report, its reporter index entry, its counting
// entry when the reporter is established and, when it is the one that
// brings the counting reporters to threshold, the escalation.
func (db *DB) AddReport(ctx context.Context, r *cairn.Report, threshold int) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if r.ID == "" || r.DeveloperID == "" || r.Family == "" || r.Canonical == "" {
		return 0, cairn.Errorf(cairn.EINVALID, "A report needs an id, a developer and an address.")
	}
	if r.CreatedAt.IsZero() {
		r.CreatedAt = db.clock.Now()
	}
	st := db.lockReports(r.Family, r.Canonical)
	defer st.Unlock()
	byKey := appendComponent(key(reportBy, r.Family, r.Canonical), r.DeveloperID)
	if ok, err := db.has(byKey); err != nil {
		return 0, err
	} else if ok {
		return 0, cairn.Errorf(cairn.ECONFLICT, "This account already reported this address.")
	}
	reporters, err := db.countPrefix(key(reportCount, r.Family, r.Canonical))
	if err != nil {
		return 0, err
	}
	escKey := key(reportEsc, r.Family, r.Canonical)
	escalated, err := db.has(escKey)
	if err != nil {
		return 0, err
	}
	b := db.db.NewBatch()
	defer b.Close()
	if r.Established {
		reporters++
		_ = b.Set(appendComponent(key(reportCount, r.Family, r.Canonical), r.DeveloperID), nil, nil)
		if reporters >= threshold && !escalated {
			r.AutoEscalated = true
			if err := setJSON(b, escKey, cairn.Escalation{Family: r.Family, Canonical: r.Canonical, Category: r.Category, ReportID: r.ID, Reporters: reporters}); err != nil {
				return 0, err
			}
		}
	}
	if err := setJSON(b, key(reportRec, r.ID), r); err != nil {
		return 0, err
	}
	_ = b.Set(byKey, []byte(r.ID), nil)
	return reporters, db.commitWithReportStats(ctx, b, func(st *cairn.ReportStats) {
		st.Total++
		st.ByStatus[r.Status]++
		st.ByCategory[r.Category]++
	})
}

func (db *DB) lockReports(family, canonical string) *stripe {
	return db.lock(&db.agts, "report\x00"+family+"\x00"+canonical)
}

// countPrefix counts the keys under prefix.
func (db *DB) countPrefix(prefix []byte) (int, error) {
	it, err := db.db.NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: prefixEnd(prefix)})
	if err != nil {
		return 0, fmt.Errorf("pebble: iterate: %w", err)
	}
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		n++
	}
	return n, it.Close()
}

// Report reads one report.
func (db *DB) Report(ctx context.Context, id string) (*cairn.Report, error) {
	var r cairn.Report
	if ok, err := db.getJSON(key(reportRec, id), &r); err != nil {
		return nil, err
	} else if !ok {
		return nil, cairn.Errorf(cairn.ENOTFOUND, "No report %q.", clipID(id))
	}
	return &r, ctx.Err()
}

func clipID(id string) string {
	if len(id) > 64 {
		return id[:64] + "..."
	}
	return id
}

// ListReports scans the reports backwards from beforeID (ids are UUIDv7,
// so newest first), keeping those with the status.
func (db *DB) ListReports(ctx context.Context, status, beforeID string, limit int) ([]cairn.Report, error) {
	upper := prefixEnd([]byte(reportRec))
	if beforeID != "" {
		upper = key(reportRec, beforeID)
	}
	return lastFirst[cairn.Report](ctx, db, []byte(reportRec), upper, limit, nil, func(r *cairn.Report) bool {
		return status == "" || r.Status == status
	})
}

// Moderate rewrites the address's reports, its counting entries and its
// escalation in one synced batch.
func (db *DB) Moderate(ctx context.Context, family, canonical, byReport string, m cairn.Moderation) ([]cairn.Report, bool, error) {
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	if m.At.IsZero() {
		m.At = db.clock.Now()
	}
	st := db.lockReports(family, canonical)
	defer st.Unlock()
	var reports []cairn.Report
	prefix := key(reportBy, family, canonical)
	if err := db.scanJSON(ctx, prefix, func(id []byte) error {
		r, err := db.Report(ctx, string(id))
		if err == nil {
			reports = append(reports, *r)
		}
		return err
	}); err != nil {
		return nil, false, err
	}
	if len(reports) == 0 {
		return nil, false, cairn.Errorf(cairn.ENOTFOUND, "No report of this address.")
	}
	escKey := key(reportEsc, family, canonical)
	escalated, err := db.has(escKey)
	if err != nil {
		return nil, false, err
	}
	b := db.db.NewBatch()
	defer b.Close()
	status := cairn.ReportRejected
	if m.Action == cairn.ModerationConfirm {
		status = cairn.ReportConfirmed
	}
	var changed []cairn.Report
	var moved []string // the former status of each changed report
	by := reports[0]
	for _, r := range reports {
		if r.ID == byReport {
			by = r
		}
		if r.Status == status || (status == cairn.ReportConfirmed && r.Status == cairn.ReportRejected) {
			continue
		}
		moved = append(moved, r.Status)
		r.Status, r.Moderation = status, &m
		if err := setJSON(b, key(reportRec, r.ID), r); err != nil {
			return nil, false, err
		}
		changed = append(changed, r)
	}
	escChanged := false
	switch {
	case status == cairn.ReportConfirmed && !escalated:
		n, err := db.countPrefix(key(reportCount, family, canonical))
		if err != nil {
			return nil, false, err
		}
		if err := setJSON(b, escKey, cairn.Escalation{Family: family, Canonical: canonical, Category: by.Category, ReportID: by.ID, Reporters: n}); err != nil {
			return nil, false, err
		}
		escChanged = true
	case status == cairn.ReportRejected:
		cp := key(reportCount, family, canonical)
		if err := b.DeleteRange(cp, prefixEnd(cp), nil); err != nil {
			return nil, false, err
		}
		if escalated {
			if err := b.Delete(escKey, nil); err != nil {
				return nil, false, err
			}
			escChanged = true
		}
	}
	return changed, escChanged, db.commitWithReportStats(ctx, b, func(st *cairn.ReportStats) {
		for _, from := range moved {
			st.ByStatus[from]--
			st.ByStatus[status]++
		}
	})
}

// Escalations lists every escalated address.
func (db *DB) Escalations(ctx context.Context) ([]cairn.Escalation, error) {
	out := []cairn.Escalation{}
	err := db.scanJSON(ctx, []byte(reportEsc), func(val []byte) error {
		var e cairn.Escalation
		if err := json.Unmarshal(val, &e); err != nil {
			return err
		}
		out = append(out, e)
		return nil
	})
	return out, err
}

// scanJSON calls fn with every value under prefix, in key order.
func (db *DB) scanJSON(ctx context.Context, prefix []byte, fn func([]byte) error) error {
	return forEach(ctx, db.db, prefix, prefixEnd(prefix), func(_, val []byte) error {
		if err := fn(val); err != nil {
			return fmt.Errorf("pebble: decode: %w", err)
		}
		return nil
	})
}
