package postgres

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/jackc/pgx/v5"
)

var _ store.Reports = (*DB)(nil)

// lockAddress takes the transaction-scoped advisory lock of a reported
// address: the count of its reporters, its escalation and its reports
// change under it alone, on every instance.
func lockAddress(ctx context.Context, tx pgx.Tx, family, canonical string) error {
	_, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtextextended('cairn/report/' || $1 || '/' || $2, 0))",
		family, canonical)
	return mapErr(err, "lock reported address")
}

// AddReport stores the report and, when it is the one that brings the
// counting reporters to threshold, the escalation, in one transaction
// under the address's lock. A second report of one developer is ECONFLICT
// (reports_reporter_key). r is changed only on success.
func (db *DB) AddReport(ctx context.Context, r *cairn.Report, threshold int) (int, error) {
	if r.ID == "" || r.DeveloperID == "" || r.Family == "" || r.Canonical == "" {
		return 0, cairn.Errorf(cairn.EINVALID, "A report needs an id, a developer and an address.")
	}
	rep := *r
	if rep.CreatedAt.IsZero() {
		rep.CreatedAt = db.clock.Now()
	}
	var reporters int
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		if err := lockAddress(ctx, tx, rep.Family, rep.Canonical); err != nil {
			return err
		}
		var escalated bool
		if err := tx.QueryRow(ctx, `SELECT
				(SELECT count(*) FROM reports WHERE family = $1 AND canonical = $2 AND counts),
				EXISTS (SELECT 1 FROM report_escalations WHERE family = $1 AND canonical = $2)`,
			rep.Family, rep.Canonical).Scan(&reporters, &escalated); err != nil {
			return mapErr(err, "count reporters")
		}
		if rep.Established {
			reporters++
			if reporters >= threshold && !escalated {
				rep.AutoEscalated = true
				if _, err := tx.Exec(ctx, `INSERT INTO report_escalations (family, canonical, category, report_id, reporters)
					VALUES ($1, $2, $3, $4, $5)`, rep.Family, rep.Canonical, rep.Category, rep.ID, reporters); err != nil {
					return mapErr(err, "escalate")
				}
			}
		}
		doc, err := json.Marshal(&rep)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO reports (id, family, canonical, developer_id, status, category, counts, record)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
			rep.ID, rep.Family, rep.Canonical, rep.DeveloperID, rep.Status, rep.Category, rep.Established, doc)
		return mapErr(err, "insert report")
	})
	if err != nil {
		return 0, err
	}
	*r = rep
	return reporters, nil
}

// Report reads one report.
func (db *DB) Report(ctx context.Context, id string) (*cairn.Report, error) {
	notFound := func() error {
		if len(id) > 64 {
			id = id[:64] + "..."
		}
		return cairn.Errorf(cairn.ENOTFOUND, "No report %q.", id)
	}
	if !validText(id) {
		return nil, notFound()
	}
	var doc []byte
	err := db.pool.QueryRow(ctx, "SELECT record FROM reports WHERE id = $1", id).Scan(&doc)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, notFound()
	} else if err != nil {
		return nil, mapErr(err, "read report")
	}
	return decodeJSON[cairn.Report](doc, "report")
}

// ListReports pages the reports by descending id (UUIDv7: newest first),
// through the primary key or, with a status, reports_status_idx.
func (db *DB) ListReports(ctx context.Context, status, beforeID string, limit int) ([]cairn.Report, error) {
	if limit <= 0 || !validText(status, beforeID) {
		return []cairn.Report{}, nil
	}
	q, args := newestFirst("SELECT record FROM reports WHERE true", nil, "status", status, beforeID, limit)
	return queryJSON[cairn.Report](ctx, db.pool, "report", q, args...)
}

// Moderate rewrites the address's reports, their counting and its
// escalation in one transaction under the address's lock.
func (db *DB) Moderate(ctx context.Context, family, canonical, byReport string, m cairn.Moderation) ([]cairn.Report, bool, error) {
	if !validText(family, canonical) {
		return nil, false, cairn.Errorf(cairn.ENOTFOUND, "No report of this address.")
	}
	if m.At.IsZero() {
		m.At = db.clock.Now()
	}
	status := cairn.ReportRejected
	if m.Action == cairn.ModerationConfirm {
		status = cairn.ReportConfirmed
	}
	var changed []cairn.Report
	escChanged := false
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		changed, escChanged = nil, false
		if err := lockAddress(ctx, tx, family, canonical); err != nil {
			return err
		}
		reports, err := queryJSON[cairn.Report](ctx, tx, "report",
			"SELECT record FROM reports WHERE family = $1 AND canonical = $2 ORDER BY developer_id", family, canonical)
		if err != nil {
			return err
		}
		if len(reports) == 0 {
			return cairn.Errorf(cairn.ENOTFOUND, "No report of this address.")
		}
		var escalated bool
		if err := tx.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM report_escalations WHERE family = $1 AND canonical = $2)",
			family, canonical).Scan(&escalated); err != nil {
			return mapErr(err, "read escalation")
		}
		by := reports[0]
		batch := &pgx.Batch{}
		for _, r := range reports {
			if r.ID == byReport {
				by = r
			}
			if r.Status == status || (status == cairn.ReportConfirmed && r.Status == cairn.ReportRejected) {
				continue
			}
			r.Status, r.Moderation = status, &m
			doc, err := json.Marshal(&r)
			if err != nil {
				return err
			}
			batch.Queue("UPDATE reports SET status = $2, record = $3 WHERE id = $1", r.ID, r.Status, doc)
			changed = append(changed, r)
		}
		switch {
		case status == cairn.ReportConfirmed && !escalated:
			batch.Queue(`INSERT INTO report_escalations (family, canonical, category, report_id, reporters)
				SELECT $1, $2, $3, $4, count(*) FROM reports WHERE family = $1 AND canonical = $2 AND counts`,
				family, canonical, by.Category, by.ID)
			escChanged = true
		case status == cairn.ReportRejected:
			batch.Queue("UPDATE reports SET counts = false WHERE family = $1 AND canonical = $2 AND counts", family, canonical)
			batch.Queue("DELETE FROM report_escalations WHERE family = $1 AND canonical = $2", family, canonical)
			escChanged = escalated
		}
		return mapErr(tx.SendBatch(ctx, batch).Close(), "moderate")
	})
	if err != nil {
		return nil, false, err
	}
	return changed, escChanged, nil
}

// Escalations reads every escalation, in address order.
func (db *DB) Escalations(ctx context.Context) ([]cairn.Escalation, error) {
	return queryRows(ctx, db.pool, "escalations", func(rows pgx.Rows, e *cairn.Escalation) error {
		return rows.Scan(&e.Family, &e.Canonical, &e.Category, &e.ReportID, &e.Reporters)
	}, `SELECT family, canonical, category, report_id, reporters FROM report_escalations
		ORDER BY family, canonical`)
}

// CountReports counts the reports by status and category in one pass.
func (db *DB) CountReports(ctx context.Context) (cairn.ReportStats, error) {
	st := cairn.ReportStats{ByStatus: map[string]int{}, ByCategory: map[string]int{}}
	rows, err := db.pool.Query(ctx, "SELECT status, category, count(*) FROM reports GROUP BY status, category")
	if err != nil {
		return st, mapErr(err, "count reports")
	}
	defer rows.Close()
	for rows.Next() {
		var status, category string
		var n int
		if err := rows.Scan(&status, &category, &n); err != nil {
			return st, mapErr(err, "count reports")
		}
		st.Total += n
		st.ByStatus[status] += n
		st.ByCategory[category] += n
	}
	return st, mapErr(rows.Err(), "count reports")
}
