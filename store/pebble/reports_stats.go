package pebble

import (
	"context"
	"encoding/json"

	"github.com/cairn-dev/cairn"
	"github.com/cockroachdb/pebble/v2"
)

// reportStatsKey holds the report statistics (cairn.ReportStats, JSON),
// updated in the batch of every report write, so that GET
// /v1/compliance/stats reads one record instead of decoding every report.
// A data dir from before it has no such record: the first count or report
// write builds it from the reports once.
var reportStatsKey = []byte(PrefixCompliance + "n/stats")

// loadReportStats returns the stored statistics, or counts them from the
// reports when none are stored. The caller holds db.reportStatsMu.
func (db *DB) loadReportStats(ctx context.Context) (cairn.ReportStats, bool, error) {
	st := cairn.ReportStats{ByStatus: map[string]int{}, ByCategory: map[string]int{}}
	ok, err := db.getJSON(reportStatsKey, &st)
	if err != nil || ok {
		return st, ok, err
	}
	err = db.scanJSON(ctx, []byte(reportRec), func(val []byte) error {
		var r cairn.Report
		if err := json.Unmarshal(val, &r); err != nil {
			return err
		}
		st.Total++
		st.ByStatus[r.Status]++
		st.ByCategory[r.Category]++
		return nil
	})
	return st, false, err
}

// commitWithReportStats applies change to the statistics, adds them to b
// and commits b, under db.reportStatsMu, so that the statistics move with
// the reports they count.
func (db *DB) commitWithReportStats(ctx context.Context, b *pebble.Batch, change func(*cairn.ReportStats)) error {
	db.reportStatsMu.Lock()
	defer db.reportStatsMu.Unlock()
	st, _, err := db.loadReportStats(ctx)
	if err != nil {
		return err
	}
	change(&st)
	for _, m := range []map[string]int{st.ByStatus, st.ByCategory} {
		for k, n := range m {
			if n <= 0 {
				delete(m, k)
			}
		}
	}
	if err := setJSON(b, reportStatsKey, st); err != nil {
		return err
	}
	return db.commit(b)
}

// CountReports reads the statistics kept with the reports.
func (db *DB) CountReports(ctx context.Context) (cairn.ReportStats, error) {
	if err := ctx.Err(); err != nil {
		return cairn.ReportStats{}, err
	}
	db.reportStatsMu.Lock()
	defer db.reportStatsMu.Unlock()
	st, ok, err := db.loadReportStats(ctx)
	if err != nil || ok {
		return st, err
	}
	b := db.db.NewBatch() // counted from the reports: keep the result
	defer b.Close()
	if err := setJSON(b, reportStatsKey, st); err != nil {
		return st, err
	}
	return st, db.commit(b)
}
