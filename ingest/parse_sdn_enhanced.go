package ingest

import (
	"encoding/xml"
	"io"
	"slices"
	"strings"
	"time"
)

// ParseSDNEnhanced streams an OFAC SDN_ENHANCED.XML (or CONS_ENHANCED.XML)
// document and emits one Record (source gov_sdn) per (entity, currency,
// address).
//
// Elements are matched by local name. Address features are recognised by
// their feature type, discovered by name from the featureTypes dictionary or
// from the type text of the feature itself ("Digital Currency Address - X").
// The entity name is the formattedFullName of the primary translation of the
// primary name, programs come from sanctionsPrograms and the listing date is
// the earliest sanctionsList datePublished. Each entity is self-contained, so
// only the records found so far are kept; they are emitted once the whole
// document has been read and checked.
func ParseSDNEnhanced(r io.Reader, emit func(Record) error) (Stats, error) {
	p := &enhParser{w: newXMLWalker(r, "sdn enhanced"), st: newStats(), dca: map[string]string{}}
	var out []Record
	em := newEmitter(func(rec Record) error { out = append(out, rec); return nil }, &p.st)
	if err := p.run(em); err != nil {
		return p.st, err
	}
	for _, rec := range out {
		if err := emit(rec); err != nil {
			return p.st, err
		}
	}
	return p.st, nil
}

type enhParser struct {
	w      *xmlWalker
	st     Stats
	dca    map[string]string // featureTypeId -> ticker
	typeID string

	sawEntities bool
	ent         *enhEntity
}

type enhEntity struct {
	id, name                     string
	programs                     []string
	listed                       time.Time
	addrs                        []advAddr
	namePrimary, transPrimary    bool
	featTicker, featTypeID, addr string
}

func (p *enhParser) run(em *emitter) error {
	w := p.w
	start := func(t xml.StartElement) error { p.start(t); return nil }
	if err := w.walk("sanctionsData", start, func(name string) error { return p.end(name, em) }); err != nil {
		return err
	}
	if !p.sawEntities {
		return w.errorf("no entities")
	}
	return nil
}

func (p *enhParser) start(t xml.StartElement) {
	w, e := p.w, p.ent
	name, parent := t.Name.Local, w.parent(1)
	switch {
	case name == "entities" && parent == "sanctionsData":
		p.sawEntities = true
	case name == "featureType" && parent == "featureTypes":
		p.typeID = attr(t, "featureTypeId")
	case name == "type" && parent == "featureType",
		name == "dataAsOf" && parent == "publicationInfo":
		w.startText()
	case name == "entity" && parent == "entities":
		p.st.EntitiesSeen++
		p.ent = &enhEntity{id: strings.TrimSpace(attr(t, "id"))}
	case e == nil:
	case name == "sanctionsList" && parent == "sanctionsLists":
		if d, err := time.Parse("2006-01-02", attr(t, "datePublished")); err == nil {
			if e.listed.IsZero() || d.Before(e.listed) {
				e.listed = d
			}
		}
	case name == "sanctionsProgram" && parent == "sanctionsPrograms",
		name == "isPrimary" && (parent == "name" || parent == "translation"),
		name == "formattedFullName" && parent == "translation" && w.parent(3) == "name":
		w.startText()
	case name == "name" && parent == "names":
		e.namePrimary, e.transPrimary = false, false
	case name == "feature" && parent == "features":
		e.featTicker, e.featTypeID, e.addr = "", "", ""
	case name == "type" && parent == "feature":
		e.featTypeID = attr(t, "featureTypeId")
		e.featTicker = p.dca[e.featTypeID]
		w.startText()
	case name == "value" && parent == "feature":
		w.startText()
	}
}

func (p *enhParser) end(name string, em *emitter) error {
	w, e := p.w, p.ent
	parent := w.parent(1)
	switch {
	case name == "type" && parent == "featureType":
		s, _ := w.takeText()
		if tk := dcaTicker(s); tk != "" && p.typeID != "" {
			p.dca[p.typeID] = tk
			p.st.TickerTypes[tk] = p.typeID
		}
	case name == "dataAsOf" && parent == "publicationInfo":
		s, _ := w.takeText()
		if t, err := time.Parse("2006-01-02T15:04:05", s); err == nil {
			p.st.IssuedAt = t
		} else if t, err := time.Parse("2006-01-02", s); err == nil {
			p.st.IssuedAt = t
		}
	case e == nil:
	case name == "sanctionsProgram" && parent == "sanctionsPrograms":
		if s, _ := w.takeText(); s != "" && !slices.Contains(e.programs, s) {
			e.programs = append(e.programs, s)
		}
	case name == "isPrimary" && parent == "name":
		s, _ := w.takeText()
		e.namePrimary = s == "true"
	case name == "isPrimary" && parent == "translation":
		s, _ := w.takeText()
		e.transPrimary = s == "true"
	case name == "formattedFullName" && parent == "translation" && w.parent(3) == "name":
		if s, _ := w.takeText(); s != "" && e.name == "" && e.namePrimary && e.transPrimary {
			e.name = s
		}
	case name == "type" && parent == "feature":
		s, _ := w.takeText()
		if e.featTicker == "" {
			e.featTicker = dcaTicker(s)
			if e.featTicker != "" && e.featTypeID != "" {
				p.st.TickerTypes[e.featTicker] = e.featTypeID
			}
		}
	case name == "value" && parent == "feature":
		v, ok := w.takeText()
		if !ok && e.featTicker != "" {
			p.st.skip("address too long")
			e.featTicker = ""
		}
		e.addr = v
	case name == "feature" && parent == "features":
		if e.featTicker != "" {
			e.addrs = append(e.addrs, advAddr{e.featTicker, e.addr})
		}
	case name == "entity" && parent == "entities":
		p.ent = nil
		return p.flush(e, em)
	}
	return nil
}

func (p *enhParser) flush(e *enhEntity, em *emitter) error {
	if len(e.addrs) == 0 {
		return nil
	}
	p.st.Entities++
	em.reset()
	programs := slices.Clip(e.programs)
	for _, a := range e.addrs {
		rec := Record{Source: SourceGovSDN, EntityID: e.id, EntityName: e.name, Programs: programs,
			ListedAt: e.listed, Ticker: a.ticker, Address: a.address}
		if err := em.add(rec); err != nil {
			return err
		}
	}
	return nil
}
