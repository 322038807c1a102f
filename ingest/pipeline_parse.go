package ingest

import (
	"fmt"
	"os"
	"strings"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/screening"
)

// parseSource runs the parser a source name calls for over its files (a
// plain list, list:<chain>, goes to ingestPlain instead).
//
// An XML source is read through a cap of maxToken bytes (0:
// DefaultMaxXMLToken) per token, so that one endless text or tag cannot
// fill the memory of the parser, which holds a token whole.
func parseSource(name string, files []*fetched, emit func(Record) error, maxToken int) error {
	open := func(i int) (*os.File, error) { return os.Open(files[i].path) }
	f, err := open(0)
	if err != nil {
		return err
	}
	defer f.Close()
	switch {
	case name == SourceGovSDN:
		head := make([]byte, 512)
		n, _ := f.Read(head)
		if _, err := f.Seek(0, 0); err != nil {
			return err
		}
		text := string(head[:n])
		switch {
		case strings.Contains(text, "<sanctionsData"):
			_, err = ParseSDNEnhanced(newTokenCap(f, maxToken), emit)
		case strings.Contains(text, "<"):
			_, err = ParseSDNAdvanced(newTokenCap(f, maxToken), emit)
		default:
			var comments *os.File
			if len(files) > 1 {
				if comments, err = open(1); err != nil {
					return err
				}
				defer comments.Close()
				_, err = ParseSDNCSV(f, comments, emit)
			} else {
				_, err = ParseSDNCSV(f, nil, emit)
			}
		}
	case name == SourceAggregated:
		_, err = ParseFtM(f, emit)
	default:
		err = fmt.Errorf("unknown source %q", name)
	}
	return err
}

// severity of a match by source.
func severity(source string) string {
	if source == SourceAggregated {
		return "high"
	}
	return "critical"
}

// lister normalises parsed records into listings. A record whose ticker is
// unknown (a currency OFAC added since this build, or a list named by
// chain) is not dropped: its family is the chain's, or else the first family
// whose address format it fits, so that a new listing can never screen
// clear. Only an address no family accepts is dropped. The order in which
// the families are tried is worked out once per ticker, not per address: a
// list of millions names one ticker.
type lister struct {
	source string
	orders map[string][]screening.Family
}

func newLister(source string) *lister {
	return &lister{source: source, orders: map[string][]screening.Family{}}
}

// add adds the listing of r to b; false when no family accepts its
// address.
func (l *lister) add(b *screening.ListingsBuilder, r Record) bool {
	order, ok := l.orders[r.Ticker]
	if !ok {
		order = familyOrder(r.Ticker)
		l.orders[r.Ticker] = order
	}
	for _, f := range order {
		c, st := screening.Normalize(f, r.Address)
		if st == screening.StatusInvalid {
			continue
		}
		cat := r.Category
		if cat == "" {
			cat = CategorySanctions
		}
		b.Add(f, c, screening.Match{
			EntityID: r.EntityID, EntityName: r.EntityName, Programs: cairn.ProgramsOf(r.Programs), Source: l.source, Category: cat, Severity: severity(l.source),
		})
		return true
	}
	return false
}

// familyOrder is the order in which the families are tried for an address
// listed under ticker: the ticker's own families (screening.TickerFamilies),
// or the family of the ticker read as a chain name, then every family. A
// valid address or one whose EIP-55 letter case is wrong is accepted (the
// listing names those bytes), as screening.NormalizeForTicker accepts it.
func familyOrder(ticker string) []screening.Family {
	first := screening.TickerFamilies(ticker)
	if first == nil {
		if f, err := screening.ChainFamily(ticker); err == nil {
			first = []screening.Family{f}
		}
	}
	return append(first, screening.Families()...)
}
