package ingest

import (
	"encoding/xml"
	"strings"
)

// advPartyState follows one DistinctParty/Profile while it streams by.
type advPartyState struct {
	cur             *advProfile
	identityPrimary bool
	nameDone        bool
	inPrimaryAlias  bool
	docChosen       bool // a DocumentedName of the primary alias was chosen
	chosenIsLatin   bool
	inChosenDoc     bool
	partGroup       string
	parts           []namePart
	featTicker      string // ticker of the Feature being read; "" if not an address
	featValues      int
}

type namePart struct{ group, value string }

func (p *advParser) partyStart(t xml.StartElement) {
	s, w := &p.party, p.w
	name, parent := t.Name.Local, w.parent(1)
	switch {
	case name == "DistinctParty":
		p.st.EntitiesSeen++
	case name == "Profile" && parent == "DistinctParty":
		*s = advPartyState{cur: &advProfile{id: strings.TrimSpace(attr(t, "ID"))}, parts: s.parts[:0]}
		clear(p.groupType)
	case s.cur == nil:
	case name == "Identity" && parent == "Profile":
		s.identityPrimary = attr(t, "Primary") == "true" && !s.nameDone
	case name == "Alias" && parent == "Identity":
		s.inPrimaryAlias = s.identityPrimary && attr(t, "Primary") == "true"
	case name == "DocumentedName" && s.inPrimaryAlias:
		latin := p.primaryLatin != "" && attr(t, "DocNameStatusID") == p.primaryLatin
		if !s.docChosen || (latin && !s.chosenIsLatin) {
			s.docChosen, s.chosenIsLatin, s.inChosenDoc = true, latin, true
			s.parts = s.parts[:0]
		}
	case name == "NamePartValue" && s.inChosenDoc:
		s.partGroup = attr(t, "NamePartGroupID")
		w.startText()
	case name == "NamePartGroup" && s.identityPrimary:
		p.groupType[attr(t, "ID")] = attr(t, "NamePartTypeID")
	case name == "Feature" && parent == "Profile":
		s.featTicker, s.featValues = p.dca[attr(t, "FeatureTypeID")], 0
	case name == "VersionDetail" && s.featTicker != "" && parent == "FeatureVersion":
		w.startText()
	}
}

func (p *advParser) partyEnd(name string) {
	s, w := &p.party, p.w
	if s.cur == nil {
		return
	}
	switch name {
	case "NamePartValue":
		if s.inChosenDoc {
			if v, ok := w.takeText(); ok && v != "" {
				s.parts = append(s.parts, namePart{s.partGroup, v})
			}
		}
	case "DocumentedName":
		s.inChosenDoc = false
	case "Alias":
		s.inPrimaryAlias = false
	case "Identity":
		if s.identityPrimary && s.docChosen && len(s.parts) > 0 {
			s.cur.name = p.buildName(s.parts)
			s.nameDone = true
		}
		s.identityPrimary = false
	case "VersionDetail":
		if s.featTicker != "" && w.parent(1) == "FeatureVersion" {
			v, ok := w.takeText()
			switch {
			case !ok:
				p.st.skip("address too long")
			case v == "":
				p.st.skip("empty address")
			default:
				s.cur.addrs = append(s.cur.addrs, advAddr{s.featTicker, v})
			}
			s.featValues++
		}
	case "Feature":
		if s.featTicker != "" && s.featValues == 0 {
			p.st.skip("address feature without value")
		}
		s.featTicker = ""
	case "Profile":
		if w.parent(1) == "DistinctParty" {
			p.keepProfile(s.cur)
			s.cur = nil
		}
	}
}

// keepProfile remembers a profile that lists at least one address.
func (p *advParser) keepProfile(c *advProfile) {
	if len(c.addrs) == 0 {
		return
	}
	if prev, ok := p.profiles[c.id]; ok {
		prev.addrs = append(prev.addrs, c.addrs...)
		return
	}
	p.profiles[c.id] = c
	p.order = append(p.order, c)
}

// buildName joins the name parts in document order, putting the last name
// first followed by a comma for people ("YAN, Xiaobing"), as OFAC prints it.
func (p *advParser) buildName(parts []namePart) string {
	var last, rest []string
	for _, np := range parts {
		if p.lastNameType != "" && p.groupType[np.group] == p.lastNameType {
			last = append(last, np.value)
		} else {
			rest = append(rest, np.value)
		}
	}
	switch {
	case len(last) == 0:
		return strings.Join(rest, " ")
	case len(rest) == 0:
		return strings.Join(last, " ")
	}
	return strings.Join(last, " ") + ", " + strings.Join(rest, " ")
}

func equalFoldTrim(s, want string) bool { return strings.EqualFold(strings.TrimSpace(s), want) }
