package compliance

import (
	"encoding/binary"
	"encoding/hex"

	"github.com/cairn-dev/cairn/screening"
)

// SyntheticListings is n sanctions listings of EVM addresses derived from
// their index (for the tests of both test packages).
func SyntheticListings(n int) []screening.Listing {
	out := make([]screening.Listing, n)
	var b [20]byte
	for i := range out {
		binary.BigEndian.PutUint64(b[12:], uint64(i)*0x9E3779B97F4A7C15)
		binary.BigEndian.PutUint32(b[8:], uint32(i))
		out[i] = screening.Listing{Family: screening.EVM, Address: "0x" + hex.EncodeToString(b[:]),
			Match: screening.Match{EntityID: "e", EntityName: "synthetic", Source: screening.SourceGovSDN, Category: "sanctions", Severity: "critical"}}
	}
	return out
}

// BenchQueries is the screening of the benchmarks: 100 addresses, 50 of
// ls listed and 50 clear ones spread over the list, as real ones are (the
// synthetic list shares its first bytes, so random ones would all lie
// above it): one above a listed address, each in a gap of its own, which
// the stored document proves.
func BenchQueries(ls []screening.Listing) []screening.Query {
	n := len(ls)
	qs := make([]screening.Query, 100)
	for i := range qs {
		if i < 50 {
			qs[i] = screening.Query{Address: ls[i*(n/50)].Address, Chain: "ethereum"}
			continue
		}
		k, _ := hex.DecodeString(ls[(i-50)*(n/50)+n/100].Address[2:])
		k[19]++
		qs[i] = screening.Query{Address: "0x" + hex.EncodeToString(k), Chain: "polygon"}
	}
	return qs
}
