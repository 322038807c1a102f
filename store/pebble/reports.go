package pebble

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/cockroachdb/pebble/v2"
)

// Community report keys, inside the reserved PrefixCompliance:
//
//	scr/r/<reportID>                         Report (JSON)
//	scr/a/<family><canonical><developerID>   report id: one per reporter and address
//	scr/e/<family><canonical>                Escalation (JSON)
const (
	reportRec = PrefixCompliance + "r/"
	reportBy  = PrefixCompliance + "a/"
	reportEsc = PrefixCompliance + "e/"
)

// AddReport stores the report, its reporter index entry and, when it is
// the one that reaches threshold distinct reporters, the escalation.
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
	st := db.lock(&db.agts, "report\x00"+r.Family+"\x00"+r.Canonical)
	defer st.Unlock()
	addrPrefix := key(reportBy, r.Family, r.Canonical)
	if ok, err := db.has(appendComponent(append([]byte(nil), addrPrefix...), r.DeveloperID)); err != nil {
		return 0, err
	} else if ok {
		return 0, cairn.Errorf(cairn.ECONFLICT, "This account already reported this address.")
	}
	it, err := db.db.NewIter(&pebble.IterOptions{LowerBound: addrPrefix, UpperBound: prefixEnd(addrPrefix)})
	if err != nil {
		return 0, fmt.Errorf("pebble: iterate reporters: %w", err)
	}
	reporters := 1
	for ok := it.First(); ok; ok = it.Next() {
		reporters++
	}
	if err := it.Close(); err != nil {
		return 0, err
	}
	escKey := key(reportEsc, r.Family, r.Canonical)
	escalated, err := db.has(escKey)
	if err != nil {
		return 0, err
	}
	b := db.db.NewBatch()
	defer b.Close()
	if reporters >= threshold && !escalated {
		r.AutoEscalated = true
		if err := setJSON(b, escKey, store.Escalation{Family: r.Family, Canonical: r.Canonical, Category: r.Category, ReportID: r.ID, Reporters: reporters}); err != nil {
			return 0, err
		}
	}
	if err := setJSON(b, key(reportRec, r.ID), r); err != nil {
		return 0, err
	}
	_ = b.Set(appendComponent(append([]byte(nil), addrPrefix...), r.DeveloperID), []byte(r.ID), nil)
	return reporters, commit(b)
}

// Escalations lists every escalated address.
func (db *DB) Escalations(ctx context.Context) ([]store.Escalation, error) {
	out := []store.Escalation{}
	err := db.scanJSON(ctx, []byte(reportEsc), func(val []byte) error {
		var e store.Escalation
		if err := json.Unmarshal(val, &e); err != nil {
			return err
		}
		out = append(out, e)
		return nil
	})
	return out, err
}

// CountReports scans the reports.
func (db *DB) CountReports(ctx context.Context) (store.ReportStats, error) {
	st := store.ReportStats{ByStatus: map[string]int{}, ByCategory: map[string]int{}}
	err := db.scanJSON(ctx, []byte(reportRec), func(val []byte) error {
		var r cairn.Report
		if err := json.Unmarshal(val, &r); err != nil {
			return err
		}
		st.Total++
		st.ByStatus[r.Status]++
		st.ByCategory[r.Category]++
		return nil
	})
	return st, err
}

// scanJSON calls fn with every value under prefix, in key order.
func (db *DB) scanJSON(ctx context.Context, prefix []byte, fn func([]byte) error) error {
	it, err := db.db.NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: prefixEnd(prefix)})
	if err != nil {
		return fmt.Errorf("pebble: iterate: %w", err)
	}
	defer it.Close()
	for ok := it.First(); ok; ok = it.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		val, err := it.ValueAndErr()
		if err != nil {
			return err
		}
		if err := fn(val); err != nil {
			return fmt.Errorf("pebble: decode: %w", err)
		}
	}
	return it.Error()
}
