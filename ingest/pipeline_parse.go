package ingest

import (
	"fmt"
	"os"
	"strings"

	"github.com/cairn-dev/cairn/screening"
)

// parseSource runs the parser a source name calls for over its files.
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
	case strings.HasPrefix(name, sourceListPrefix):
		_, err = ParsePlainList(f, strings.TrimPrefix(name, sourceListPrefix), emit)
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

// toListing normalises a parsed record into a listing. A record whose
// ticker is unknown (a currency OFAC added since this build, or a list
// named by chain) is not dropped: its family is the chain's, or else the
// first family whose address format it fits, so that a new listing can
// never screen clear. Only an address no family accepts is dropped.
func toListing(source string, r Record) (screening.Listing, bool) {
	fam, canon, err := screening.NormalizeForTicker(r.Ticker, r.Address)
	if err != nil {
		var ok bool
		if fam, canon, ok = detectFamily(r.Ticker, r.Address); !ok {
			return screening.Listing{}, false
		}
	}
	cat := r.Category
	if cat == "" {
		cat = CategorySanctions
	}
	return screening.Listing{Family: fam, Address: canon, Match: screening.Match{
		EntityID: r.EntityID, EntityName: r.EntityName, Source: source, Category: cat, Severity: severity(source),
	}}, true
}

// detectFamily finds the family of an address listed under a ticker the
// ticker table does not know: the family of the ticker read as a chain
// name, else the first family (EVM first) that accepts the address.
func detectFamily(ticker, address string) (screening.Family, string, bool) {
	candidates := screening.Families()
	if f, err := screening.ChainFamily(ticker); err == nil {
		candidates = append([]screening.Family{f}, candidates...)
	}
	for _, f := range candidates {
		if c, st := screening.Normalize(f, address); st != screening.StatusInvalid {
			return f, c, true
		}
	}
	return "", "", false
}
