package compliance_test

import (
	"context"
	"encoding/json"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/compliance"
)

// BenchmarkScreenStored screens 100 addresses (50 listed, 50 clear ones
// spread over the list) against a list of n addresses, as POST /v1/compliance/screen does: billing, the proof
// document and its write to the embedded proof store. It reports the
// process's CPU time per screening (the store's background work
// included: the wall time is mostly the wait for the log sync) and the
// stored and served bytes of the proof document.
func BenchmarkScreenStored(b *testing.B) {
	for _, n := range []int{1_000, 1_000_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			ls := compliance.SyntheticListings(n)
			db := openStore(b)
			s, _, p := serviceOn(b, db, 1e12, ls)
			s.Proofs = db
			qs := compliance.BenchQueries(ls)
			ctx := context.Background()
			// The trees' top records are written once per list version,
			// when it is installed (StoreTops), and flushed to their files:
			// not part of a screening.
			s.StoreTops(ctx)
			if err := db.Pebble().Flush(); err != nil {
				b.Fatal(err)
			}
			var last *compliance.Screened
			cpu0 := processCPU(b)
			for b.Loop() {
				scr, err := s.Screen(ctx, p, qs, false)
				if err != nil {
					b.Fatal(err)
				}
				if last != nil {
					last.Release() // as the API does once the answer is written
				}
				last = scr
			}
			b.ReportMetric(float64((processCPU(b)-cpu0).Microseconds())/float64(b.N), "cpu-us/op")
			var head compliance.ProofDoc
			if err := json.Unmarshal(last.Proof, &head); err != nil {
				b.Fatal(err)
			}
			rec, err := s.Proofs.Proof(ctx, head.ScreeningID)
			if err != nil {
				b.Fatal(err)
			}
			doc, err := s.Proof(ctx, head.ScreeningID)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(len(rec)), "storedB/op")
			b.ReportMetric(float64(len(doc)), "docB/op")
		})
	}
}

// processCPU is the user and system CPU time the process has used.
func processCPU(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
