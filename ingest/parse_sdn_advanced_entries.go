package ingest

import (
	"encoding/xml"
	"slices"
	"strings"
)

// advEntryState follows one SanctionsEntry of a profile that lists addresses.
type advEntryState struct {
	cur            *advProfile // nil for entries of profiles without addresses
	programMeasure bool
	date           ymd
}

func (p *advParser) entryStart(t xml.StartElement) {
	s, w := &p.entry, p.w
	name, parent := t.Name.Local, w.parent(1)
	switch {
	case name == "SanctionsEntry":
		*s = advEntryState{cur: p.profiles[strings.TrimSpace(attr(t, "ProfileID"))]}
	case s.cur == nil:
	case name == "Date" && parent == "EntryEvent":
		s.date = ymd{}
	case parent == "Date" && w.parent(2) == "EntryEvent":
		w.startText()
	case name == "SanctionsMeasure":
		s.programMeasure = p.programType[attr(t, "SanctionsTypeID")]
	case name == "Comment" && parent == "SanctionsMeasure" && s.programMeasure:
		w.startText()
	}
}

func (p *advParser) entryEnd(name string) {
	s, w := &p.entry, p.w
	if s.cur == nil {
		return
	}
	switch parent := w.parent(1); {
	case parent == "Date" && w.parent(2) == "EntryEvent":
		v, _ := w.takeText()
		s.date.set(name, v)
	case name == "Date" && parent == "EntryEvent":
		if t, ok := s.date.time(); ok && (s.cur.listed.IsZero() || t.Before(s.cur.listed)) {
			s.cur.listed = t
		} else if !ok {
			p.st.skip("malformed listing date")
		}
	case name == "Comment" && parent == "SanctionsMeasure" && s.programMeasure:
		if v, _ := w.takeText(); v != "" && !slices.Contains(s.cur.programs, v) {
			s.cur.programs = append(s.cur.programs, v)
		}
	case name == "SanctionsMeasure":
		s.programMeasure = false
	case name == "SanctionsEntry":
		s.cur.hasEntry = true
		s.cur = nil
	}
}

// emitAll emits the kept profiles in document order, after the whole
// document has been read.
func (p *advParser) emitAll(emit func(Record) error) error {
	em := newEmitter(emit, &p.st)
	for _, c := range p.order {
		if !c.hasEntry {
			p.st.Warnings["profile without sanctions entry"]++
		}
		em.reset()
		p.st.Entities++
		programs := slices.Clip(c.programs)
		for _, a := range c.addrs {
			err := em.add(Record{
				Source:     SourceGovSDN,
				EntityID:   c.id,
				EntityName: c.name,
				Programs:   programs,
				ListedAt:   c.listed,
				Ticker:     a.ticker,
				Address:    a.address,
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}
