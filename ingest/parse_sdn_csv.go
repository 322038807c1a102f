package ingest

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	cairn "github.com/cairn-dev/cairn"
)

// Legacy OFAC CSV layout: sdn.csv has 12 columns (ent_num, SDN_Name,
// SDN_Type, Program, Title, Call_Sign, Vess_type, Tonnage, GRT, Vess_flag,
// Vess_owner, Remarks); sdn_comments.csv has 2 (ent_num, Remarks_Extended).
const (
	sdnColumns      = 12
	sdnColName      = 1
	sdnColProgram   = 3
	sdnColRemarks   = 11
	commentsColumns = 2
	csvNull         = "-0-"
	csvEOFMarker    = "\x1a" // the OFAC files end with a DOS end-of-file byte
)

// ParseSDNCSV parses the legacy sdn.csv with its sdn_comments.csv and emits
// one Record (source gov_sdn) per (entity, currency, address) found in the
// remarks. sdn.csv truncates long remarks and continues them in
// sdn_comments.csv, sometimes in the middle of an address, so the two are
// joined by entity number before the "Digital Currency Address - X addr"
// clauses are extracted. comments may be nil. Memory is bounded by the
// comments file (kept by entity number) and the records found; records are
// emitted once both files have been read without error.
func ParseSDNCSV(sdn, comments io.Reader, emit func(Record) error) (Stats, error) {
	st := newStats()
	extra := map[int]string{}
	if comments != nil {
		err := readOFACCSV(comments, "sdn comments", commentsColumns, func(ent int, row []string) {
			extra[ent] += row[1]
		})
		if err != nil {
			return st, err
		}
	}
	var out []Record
	em := newEmitter(func(r Record) error { out = append(out, r); return nil }, &st)
	err := readOFACCSV(sdn, "sdn csv", sdnColumns, func(ent int, row []string) {
		st.EntitiesSeen++
		remarks := row[sdnColRemarks]
		if more, ok := extra[ent]; ok {
			remarks += more
			delete(extra, ent)
		}
		found := remarkAddresses(remarks, st.skip)
		if len(found) == 0 {
			return
		}
		st.Entities++
		em.reset()
		id := strconv.Itoa(ent)
		name, programs := toUTF8(row[sdnColName]), csvPrograms(row[sdnColProgram])
		for _, a := range found {
			_ = em.add(Record{Source: SourceGovSDN, EntityID: id, EntityName: name,
				Programs: programs, Ticker: a.ticker, Address: a.address})
		}
	})
	if err != nil {
		return st, err
	}
	if len(extra) > 0 {
		st.Warnings["comment without sdn row"] += len(extra)
	}
	for _, r := range out {
		if err := emit(r); err != nil {
			return st, err
		}
	}
	return st, nil
}

// readOFACCSV reads an OFAC CSV file with a fixed column count, maps "-0-"
// to "" and calls row for each record keyed by its entity number.
func readOFACCSV(r io.Reader, what string, columns int, row func(ent int, fields []string)) error {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	for n := 1; ; n++ {
		rec, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return cairn.Errorf(cairn.EINVALID, "%s: %v", what, err)
			}
			return fmt.Errorf("%s: %w", what, err)
		}
		if len(rec) == 1 && strings.Trim(rec[0], csvEOFMarker+" \r\n") == "" {
			continue
		}
		if len(rec) != columns {
			return cairn.Errorf(cairn.EINVALID, "%s: record %d: %d fields, want %d", what, n, len(rec), columns)
		}
		ent, err := strconv.Atoi(strings.TrimSpace(rec[0]))
		if err != nil || ent <= 0 {
			return cairn.Errorf(cairn.EINVALID, "%s: record %d: bad entity number %q", what, n, rec[0])
		}
		for i := range rec {
			if strings.TrimSpace(rec[i]) == csvNull {
				rec[i] = ""
			}
		}
		row(ent, rec)
	}
}

// csvPrograms splits the Program column ("CYBER2] [ELECTION-EO13848").
func csvPrograms(s string) []string {
	var out []string
	for _, p := range strings.Split(s, "] [") {
		if p = strings.Trim(p, "[] "); p != "" {
			out = append(out, p)
		}
	}
	return out
}
