package ingest

import (
	"encoding/xml"
	"io"
	"time"
)

// ParseSDNAdvanced streams an OFAC SDN_ADVANCED.XML document and emits one
// Record (source gov_sdn) per (profile, currency, address).
//
// Elements are matched by local name, so any namespace works. The currencies
// are discovered on each run from the FeatureType dictionary: every type
// named "Digital Currency Address - X" yields ticker X. The entity name is
// the primary Latin name of the primary alias ("LAST, First" for people),
// programs and the listing date come from the SanctionsEntries section that
// follows the parties. While streaming, only the profiles that carry an
// address are kept (id, name, addresses), so memory is bounded by the listed
// addresses, not by the ~120 MB file. Records are emitted after the document
// has been read completely and checked; a truncated or malformed document
// returns an error and emits nothing.
func ParseSDNAdvanced(r io.Reader, emit func(Record) error) (Stats, error) {
	p := &advParser{
		w:           newXMLWalker(r, "sdn advanced"),
		st:          newStats(),
		dca:         map[string]string{},
		programType: map[string]bool{},
		profiles:    map[string]*advProfile{},
		groupType:   map[string]string{},
	}
	if err := p.run(); err != nil {
		return p.st, err
	}
	return p.st, p.emitAll(emit)
}

type advAddr struct{ ticker, address string }

type advProfile struct {
	id, name string
	addrs    []advAddr
	programs []string
	listed   time.Time
	hasEntry bool
}

type advParser struct {
	w  *xmlWalker
	st Stats

	// dictionaries, discovered by name in ReferenceValueSets
	dca          map[string]string // FeatureType id -> ticker
	programType  map[string]bool   // SanctionsType ids named "Program"
	lastNameType string            // NamePartType id named "Last Name"
	primaryLatin string            // DocNameStatus id named "Primary Latin"
	refID        string
	issued       ymd

	sawRefs, sawParties, sawEntries bool

	profiles  map[string]*advProfile // profiles with at least one address
	groupType map[string]string      // NamePartGroup id -> NamePartType id, primary identity
	order     []*advProfile

	party advPartyState
	entry advEntryState
}

// ymd collects a Year/Month/Day triple.
type ymd struct{ y, m, d string }

func (v ymd) time() (time.Time, bool) {
	t, err := time.Parse("2006-1-2", v.y+"-"+v.m+"-"+v.d)
	return t, err == nil
}

func (v *ymd) set(name, text string) {
	switch name {
	case "Year":
		v.y = text
	case "Month":
		v.m = text
	case "Day":
		v.d = text
	}
}

func (p *advParser) run() error {
	w := p.w
	if err := w.walk("Sanctions", p.start, func(name string) error { p.end(name); return nil }); err != nil {
		return err
	}
	switch {
	case !p.sawRefs:
		return w.errorf("no ReferenceValueSets")
	case !p.sawParties:
		return w.errorf("no DistinctParties")
	case !p.sawEntries:
		return w.errorf("no SanctionsEntries")
	}
	return nil
}

func (p *advParser) start(t xml.StartElement) error {
	w := p.w
	name := t.Name.Local
	switch w.parent(1) {
	case "Sanctions":
		switch name {
		case "ReferenceValueSets":
			p.sawRefs = true
		case "DistinctParties":
			if !p.sawRefs {
				return w.errorf("DistinctParties before ReferenceValueSets")
			}
			p.sawParties = true
		case "SanctionsEntries":
			p.sawEntries = true
		}
		return nil
	case "DateOfIssue":
		w.startText()
		return nil
	case "FeatureTypeValues", "SanctionsTypeValues", "NamePartTypeValues", "DocNameStatusValues":
		p.refID = attr(t, "ID")
		w.startText()
		return nil
	}
	if p.sawEntries {
		p.entryStart(t)
	} else if p.sawParties {
		p.partyStart(t)
	}
	return nil
}

func (p *advParser) end(name string) {
	w := p.w
	switch w.parent(1) {
	case "DateOfIssue":
		s, _ := w.takeText()
		p.issued.set(name, s)
		return
	case "FeatureTypeValues", "SanctionsTypeValues", "NamePartTypeValues", "DocNameStatusValues":
		s, _ := w.takeText()
		p.refValue(name, s)
		return
	case "Sanctions":
		if name == "DateOfIssue" {
			if t, ok := p.issued.time(); ok {
				p.st.IssuedAt = t
			}
		}
		return
	}
	if p.sawEntries {
		p.entryEnd(name)
	} else if p.sawParties {
		p.partyEnd(name)
	}
}

func (p *advParser) refValue(name, text string) {
	switch name {
	case "FeatureType":
		if tk := dcaTicker(text); tk != "" && p.refID != "" {
			p.dca[p.refID] = tk
			p.st.TickerTypes[tk] = p.refID
		}
	case "SanctionsType":
		if equalFoldTrim(text, "Program") {
			p.programType[p.refID] = true
		}
	case "NamePartType":
		if equalFoldTrim(text, "Last Name") {
			p.lastNameType = p.refID
		}
	case "DocNameStatus":
		if equalFoldTrim(text, "Primary Latin") {
			p.primaryLatin = p.refID
		}
	}
}
