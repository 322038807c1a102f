package compliance

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/screening"
)

// benchIndex is the index of a 1,000,000-address list, built once for the
// benchmarks of the proof document's pieces.
var benchIndex = sync.OnceValues(func() (*screening.Index, error) {
	return screening.Build(7, time.Unix(0, 0), SyntheticListings(1_000_000))
})

// BenchmarkProofPieces times each piece of a screening's proof document
// for 100 addresses (BenchQueries: 50 listed, 50 clear in gaps of their
// own) against a 1,000,000-address list: the lookups, the membership and
// the exclusion multiproofs (cut to the record's hashes, as screenings take
// them), the results' JSON, and the record's encoding
// and reading.
func BenchmarkProofPieces(b *testing.B) {
	ix, err := benchIndex()
	if err != nil {
		b.Fatal(err)
	}
	qs := BenchQueries(SyntheticListings(1_000_000))
	results, loc, err := ix.ScreenLocated(qs, false, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Screen", func(b *testing.B) {
		var out []screening.Result
		var at []screening.Located
		for b.Loop() {
			if out, at, err = ix.ScreenLocated(qs, false, out, at); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("MembershipProofs", func(b *testing.B) {
		for b.Loop() {
			if _, err := resultProofs(ix, results, loc, topNodesOf(topLevels), true); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("ExclusionProofs", func(b *testing.B) {
		for b.Loop() {
			if _, err := resultGaps(ix, results, loc, false, topNodesOf(topLevels), true); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Results", func(b *testing.B) {
		var buf []byte
		for b.Loop() {
			buf = appendResults(buf[:0], results, "2026-05-01T00:00:00Z")
		}
		b.ReportMetric(float64(len(buf)), "B/results")
	})
	proofs, _ := resultProofs(ix, results, loc, topNodesOf(topLevels), false) // whole: every version encodes them
	gaps, _ := resultGaps(ix, results, loc, false, topNodesOf(topLevels), false)
	head := []byte(`{"screeningId":"01a21ad5-5dff-7293-ab44-133036507fa2","timestamp":"2026-05-01T00:00:00Z"}`)
	rec := &proofRecord{head: head, results: appendResults(nil, results, "2026-05-01T00:00:00Z"), proofs: proofs, gaps: gaps}
	for _, format := range []byte{proofFormatV2, proofFormatV3, proofFormatV4} {
		var stored []byte
		b.Run(fmt.Sprintf("EncodeV%d", format), func(b *testing.B) {
			for b.Loop() {
				stored = rec.appendFormat(stored[:0], format)
			}
			b.ReportMetric(float64(len(stored)), "B/record")
		})
		b.Run(fmt.Sprintf("ReadV%d", format), func(b *testing.B) {
			for b.Loop() {
				if _, err := proofDocument(stored, indexTops(ix)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
