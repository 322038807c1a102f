package screening

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// syntheticListings makes n EVM listings with deterministic addresses.
func syntheticListings(n int) []Listing {
	out := make([]Listing, n)
	var b [20]byte
	for i := range out {
		binary.BigEndian.PutUint64(b[12:], uint64(i)*0x9E3779B97F4A7C15)
		binary.BigEndian.PutUint32(b[8:], uint32(i))
		out[i] = Listing{Family: EVM, Address: "0x" + hex.EncodeToString(b[:]),
			Match: Match{EntityID: "e", EntityName: "synthetic", Source: SourceGovSDN, Category: "sanctions", Severity: "critical"}}
	}
	return out
}

// processCPU is the CPU time the process has used, user and system.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkBuildIndex builds the index and Merkle tree of n listings and
// reports the heap the index keeps per listed address.
func BenchmarkBuildIndex(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			ls := syntheticListings(n)
			var cpu time.Duration
			for b.Loop() {
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				c := processCPU(b)
				ix, err := Build(1, time.Now(), ls)
				if err != nil {
					b.Fatal(err)
				}
				cpu += processCPU(b) - c
				runtime.GC()
				runtime.ReadMemStats(&after)
				b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(n), "heapB/addr")
				runtime.KeepAlive(ix)
			}
			// The process's CPU time (every thread) per build: other
			// work on the machine disturbs it far less than ns/op.
			b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
		})
	}
}

// syntheticIndex is an index of n synthetic listings, with them.
func syntheticIndex(b *testing.B, n int) ([]Listing, *Index) {
	ls := syntheticListings(n)
	ix, err := Build(1, time.Now(), ls)
	if err != nil {
		b.Fatal(err)
	}
	return ls, ix
}

// batch100 is a batch of 100 queries of the listings ls: every other one
// listed (spread over ls), the others not, over four chains.
func batch100(ls []Listing) []Query {
	chains := []string{"ethereum", "polygon", "bsc", "base"}
	qs := make([]Query, 100)
	for i := range qs {
		addr := ls[i*(len(ls)/100)].Address
		if i%2 == 1 {
			addr = "0x" + fmt.Sprintf("%040x", i+7)
		}
		qs[i] = Query{Address: addr, Chain: chains[i%len(chains)]}
	}
	return qs
}

// benchProof makes the Merkle proof of a listed address of ls, a different
// one each time, in ix.
func benchProof(b *testing.B, ix *Index, ls []Listing) {
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, _, ok := ix.Proof(EVM, ls[i%len(ls)].Address); !ok {
			b.Fatal("no proof")
		}
		i += 7919
	}
}

// BenchmarkScreen100 screens a batch of 100 addresses (half listed, mixed
// case, several chains) against an index of n addresses.
func BenchmarkScreen100(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			ls, ix := syntheticIndex(b, n)
			qs := batch100(ls)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ix.Screen(qs, true); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkProof makes the Merkle proof of one listed address (leaf hash,
// leaf lookup, sibling path) in an index of n addresses.
func BenchmarkProof(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			ls, ix := syntheticIndex(b, n)
			benchProof(b, ix, ls)
		})
	}
}
