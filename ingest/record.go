package ingest

import (
	"sort"
	"strings"
	"time"
)

// Source names as they appear in screening results (spec 2.4 dataSources).
const (
	SourceGovSDN     = "gov_sdn"
	SourceAggregated = "aggregated_sanctions"
	sourceListPrefix = "list:"
)

// CategorySanctions is the match category of every record these parsers emit.
const CategorySanctions = "sanctions"

// ListSource returns the source name of a plain per-asset list, "list:<chain>".
func ListSource(chain string) string { return sourceListPrefix + chain }

// Record is one listed address of one entity, as a source lists it.
type Record struct {
	Source     string    // SourceGovSDN, SourceAggregated or ListSource(...)
	EntityID   string    // OFAC profile id, FtM holder id (or wallet id); empty for plain lists
	EntityName string    // primary name of the entity; empty when unknown
	Programs   []string  // sanctions programs (OFAC codes such as CYBER2); nil when unknown
	ListedAt   time.Time // earliest listing date; zero when unknown
	Ticker     string    // currency code as listed: XBT, ETH, USDT... (upper case)
	Address    string    // the address exactly as listed, whitespace trimmed, not normalised
	Category   string    // CategorySanctions
	Topics     []string  // FtM topics (e.g. "sanction"); nil for other sources
	Datasets   []string  // FtM datasets; nil for other sources
}

// Stats reports what one parse saw, so that ingestion can log and check it.
type Stats struct {
	IssuedAt     time.Time         // publication date of the file when it carries one
	TickerTypes  map[string]string // ticker -> source feature type id, discovered by name
	EntitiesSeen int               // parties/entities/lines scanned
	Entities     int               // entities that carry at least one address
	Records      int               // records emitted
	ByTicker     map[string]int    // records emitted per ticker
	Duplicates   int               // exact (entity, ticker, address) repeats dropped
	Skipped      map[string]int    // malformed items dropped, by reason
	Warnings     map[string]int    // items emitted with missing context, by reason
}

func newStats() Stats {
	return Stats{TickerTypes: map[string]string{}, ByTicker: map[string]int{}, Skipped: map[string]int{}, Warnings: map[string]int{}}
}

func (s *Stats) skip(reason string) { s.Skipped[reason]++ }

// SkippedTotal is the number of malformed items dropped for any reason.
func (s *Stats) SkippedTotal() int {
	n := 0
	for _, v := range s.Skipped {
		n += v
	}
	return n
}

// Tickers returns the tickers with at least one record, sorted.
func (s *Stats) Tickers() []string {
	out := make([]string, 0, len(s.ByTicker))
	for t := range s.ByTicker {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// maxAddressLen bounds one listed address; longer values are not addresses.
const maxAddressLen = 256

// emitter drops exact (entity, ticker, address) duplicates and keeps the
// counters. Its memory is bounded by the addresses of one entity when the
// caller resets it between entities, and by the addresses emitted otherwise.
type emitter struct {
	emit  func(Record) error
	stats *Stats
	seen  map[[3]string]struct{}
}

func newEmitter(emit func(Record) error, stats *Stats) *emitter {
	return &emitter{emit: emit, stats: stats, seen: map[[3]string]struct{}{}}
}

// reset forgets the addresses of the previous entity.
func (e *emitter) reset() { clear(e.seen) }

// add validates, de-duplicates and emits r. The caller resets between entities.
func (e *emitter) add(r Record) error {
	r.Ticker = strings.ToUpper(strings.TrimSpace(r.Ticker))
	r.Address = strings.TrimSpace(r.Address)
	switch {
	case r.Address == "":
		e.stats.skip("empty address")
		return nil
	case r.Ticker == "":
		e.stats.skip("empty currency")
		return nil
	case len(r.Address) > maxAddressLen:
		e.stats.skip("address too long")
		return nil
	case strings.ContainsAny(r.Address, " \t\r\n"):
		e.stats.skip("address contains whitespace")
		return nil
	}
	k := [3]string{r.EntityID, r.Ticker, r.Address}
	if _, dup := e.seen[k]; dup {
		e.stats.Duplicates++
		return nil
	}
	e.seen[k] = struct{}{}
	if r.Category == "" {
		r.Category = CategorySanctions
	}
	e.stats.Records++
	e.stats.ByTicker[r.Ticker]++
	return e.emit(r)
}
