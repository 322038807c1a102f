package compliance

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/merkle"
	"github.com/cairn-dev/cairn/screening"
)

// makings hands out the bytes a record is made of.
type makings struct{ b []byte }

func (m *makings) byte() byte {
	if len(m.b) == 0 {
		return 0
	}
	c := m.b[0]
	m.b = m.b[1:]
	return c
}

// take gives the next n bytes (fewer when the makings run out), never nil.
func (m *makings) take(n int) []byte {
	n = min(n, len(m.b))
	out := append([]byte{}, m.b[:n]...)
	m.b = m.b[n:]
	return out
}

func (m *makings) hashes() []merkle.Hash {
	hs := make([]merkle.Hash, m.byte()%40)
	for i := range hs {
		copy(hs[i][:], m.take(32))
	}
	return hs
}

// recordFrom makes a record of any bytes: up to four classes in name
// order, up to 39 leaves and proof hashes, up to 255 flags, any bytes in
// the strings (not only UTF-8), every list non-nil as parseProofRecord
// gives them.
func recordFrom(data []byte) *proofRecord {
	m := &makings{b: data}
	r := &proofRecord{head: append(append([]byte{'{'}, m.take(int(m.byte()))...), '}'), results: m.take(int(m.byte()))}
	var classes []string
	for range m.byte() % 5 {
		classes = append(classes, string(m.take(int(m.byte()%12))))
	}
	slices.Sort(classes)
	r.proofs = []classProof{}
	for _, c := range slices.Compact(classes) {
		p := classProof{Class: c}
		copy(p.Root[:], m.take(32))
		p.Leaves, p.Proof = m.hashes(), m.hashes()
		p.ProofFlags = make([]bool, m.byte())
		for i := range p.ProofFlags {
			p.ProofFlags[i] = m.byte()&1 == 1
		}
		p.Values = make([][2]string, m.byte()%20)
		for i := range p.Values {
			p.Values[i] = [2]string{string(m.take(int(m.byte() % 16))), string(m.take(int(m.byte() % 64)))}
		}
		r.proofs = append(r.proofs, p)
	}
	if m.byte()&1 == 0 {
		return r // version 1: no exclusion parts
	}
	classes = classes[:0]
	for range m.byte() % 5 {
		classes = append(classes, string(m.take(int(m.byte()%12))))
	}
	slices.Sort(classes)
	r.gaps = []gapProof{}
	for _, c := range slices.Compact(classes) {
		p := gapProof{Class: c}
		copy(p.Root[:], m.take(32))
		p.Leaves, p.Proof = m.hashes(), m.hashes()
		p.ProofFlags = make([]bool, m.byte())
		for i := range p.ProofFlags {
			p.ProofFlags[i] = m.byte()&1 == 1
		}
		p.Values = make([][3]string, m.byte()%20)
		for i := range p.Values {
			p.Values[i] = [3]string{string(m.take(int(m.byte() % 16))), string(m.take(int(m.byte() % 64))), string(m.take(int(m.byte() % 64)))}
		}
		r.gaps = append(r.gaps, p)
	}
	return r
}

// checkRoundTrip: a record written in a format reads back as it was
// written, and its document renders the same from either. A record of
// version 3 must have the leaves of its values (hashLeaves): it does not
// keep them.
func checkRoundTrip(t *testing.T, r *proofRecord, format byte) {
	t.Helper()
	rec := r.appendFormat([]byte("prefix"), format)
	if !bytes.HasPrefix(rec, []byte("prefix")) || rec[len("prefix")] != format || isZstd(rec[len("prefix"):]) {
		t.Fatalf("record %x does not start with its format %d", rec, format)
	}
	got, err := parseProofRecord(rec[len("prefix"):])
	if err != nil {
		t.Fatalf("record %x does not read: %v", rec, err)
	}
	if !reflect.DeepEqual(got, r) {
		t.Fatalf("record of version %d reads as\n%+v\nwritten\n%+v", format, got, r)
	}
	want, err := r.document()
	if err != nil {
		t.Fatal(err)
	}
	if doc, err := got.document(); err != nil || !bytes.Equal(doc, want) {
		t.Fatalf("document %s (%v), want %s", doc, err, want)
	}
	// A document of version 1 has no exclusionProofs; one of version 2
	// or 3 has them, between merkleProofs and results.
	if has := bytes.Contains(want, []byte(`,"exclusionProofs":{`)); has != (r.gaps != nil) && !bytes.Contains(r.head, []byte("exclusionProofs")) {
		t.Fatalf("document %s: exclusionProofs %v for a record with gaps %v", want, has, r.gaps != nil)
	}
}

// checkFormats: a record round-trips in the format of before that fits it
// (version 1 without exclusion parts, else 2) and, its leaves made those
// of its values, in version 3.
func checkFormats(t *testing.T, r *proofRecord) {
	t.Helper()
	if r.gaps == nil {
		checkRoundTrip(t, r, proofFormatV1)
		r.gaps = []gapProof{}
	} else {
		checkRoundTrip(t, r, proofFormatV2)
	}
	r.hashLeaves()
	checkRoundTrip(t, r, proofFormatV3)
}

// TestProofRecordRoundTrip: records made of random bytes read back as they
// were written.
func TestProofRecordRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 1))
	for range 500 {
		data := make([]byte, r.IntN(8000))
		for i := range data {
			data[i] = byte(r.Uint32())
		}
		checkFormats(t, recordFrom(data))
	}
	// Flags on and around byte boundaries.
	for n := range 18 {
		for _, on := range []bool{false, true} {
			p := classProof{Class: "sanctions", ResultProof: ResultProof{Leaves: []merkle.Hash{}, Proof: []merkle.Hash{}, ProofFlags: make([]bool, n), Values: [][2]string{}}}
			for i := range p.ProofFlags {
				p.ProofFlags[i] = on == (i%3 == 0)
			}
			checkFormats(t, &proofRecord{head: []byte("{}"), results: []byte{}, proofs: []classProof{p}})
		}
	}
}

// FuzzProofRecord: any bytes read as a record fail or give a record that
// writes and reads back the same (never a panic; counts are bounded by
// the bytes left to hold them); and a record made of any bytes round-trips.
func FuzzProofRecord(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{proofFormatV1})
	f.Add(recordFrom([]byte("\x05head\x07results\x02\x03abc")).appendFormat(nil, proofFormatV1))
	f.Add(recordFrom([]byte("\x05head\x07results\x02\x03abc")).appendBinary(nil))
	seed := make([]byte, 600)
	for i := range seed {
		seed[i] = byte(i * 7)
	}
	f.Add(seed)
	f.Add(recordFrom(seed).appendFormat(nil, proofFormatV2))
	f.Add(recordFrom(seed).appendBinary(nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		if r, err := parseProofRecord(data); err == nil {
			checkRoundTrip(t, r, data[0])
		}
		checkFormats(t, recordFrom(data))
	})
}

// TestProofRecordMalformed: a record cut short, with bytes after its end,
// with flag bits past the last flag or with classes out of order does not
// read, in the format of today and in the one of before.
func TestProofRecordMalformed(t *testing.T) {
	p := ResultProof{Leaves: []merkle.Hash{{1}}, Proof: []merkle.Hash{{2}, {3}}, ProofFlags: []bool{true, false, false}, Values: [][2]string{{"evm", "0x01"}}}
	good := &proofRecord{head: []byte(`{"a":1}`), results: []byte(`[]`), proofs: []classProof{{"community", p}, {"sanctions", p}}, gaps: []gapProof{}}
	for _, format := range []byte{proofFormatV2, proofFormatV3} {
		rec := good.appendFormat(nil, format)
		if _, err := parseProofRecord(rec); err != nil {
			t.Fatal(err)
		}
		for n := range len(rec) {
			if _, err := parseProofRecord(rec[:n]); err == nil {
				t.Fatalf("record of version %d cut to %d of %d bytes reads", format, n, len(rec))
			}
		}
		if _, err := parseProofRecord(append(slices.Clip(rec), 0)); err == nil {
			t.Fatalf("a byte after the record of version %d reads", format)
		}
		// The flags byte of the first class: format, class count, root, 1
		// leaf (before version 3), 2 proof hashes, flag count.
		at := 1 + 1 + 32 + 1 + 64 + 1
		if format == proofFormatV2 {
			at += 1 + 32
		}
		if rec[at] != 0b001 {
			t.Fatalf("flags byte %08b", rec[at])
		}
		bad := slices.Clone(rec)
		bad[at] |= 0b1000
		if _, err := parseProofRecord(bad); err == nil {
			t.Fatalf("a flag bit past the last flag reads in version %d", format)
		}
		swapped := &proofRecord{head: good.head, results: good.results, proofs: []classProof{good.proofs[1], good.proofs[0]}, gaps: good.gaps}
		if _, err := parseProofRecord(swapped.appendFormat(nil, format)); err == nil {
			t.Fatalf("classes out of name order read in version %d", format)
		}
		noObject := &proofRecord{head: []byte(`[]`), results: good.results, proofs: good.proofs, gaps: good.gaps}
		if _, err := parseProofRecord(noObject.appendFormat(nil, format)); err == nil {
			t.Fatalf("a header that is not an object reads in version %d", format)
		}
	}
	for _, rec := range [][]byte{{0x00}, {0x04}, {proofFormatV3, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x0f}} {
		if _, err := parseProofRecord(rec); err == nil {
			t.Fatalf("record %x reads", rec)
		}
	}
}

// TestProofRecordFormatsAgree: the record of a real screening (listed
// addresses and clear ones, both trees) gives the same document from
// every format that can hold it: version 3 as written today, the
// versions of before, and version 1 of the same screening without its
// exclusion parts as it was before clear results were proven.
func TestProofRecordFormatsAgree(t *testing.T) {
	ls := SyntheticListings(3000)
	ix, err := screening.Build(7, time.Unix(0, 0), ls)
	if err != nil {
		t.Fatal(err)
	}
	for _, community := range []bool{false, true} {
		results, err := ix.Screen(BenchQueries(ls), community)
		if err != nil {
			t.Fatal(err)
		}
		proofs, err := resultProofs(ix, results)
		if err != nil {
			t.Fatal(err)
		}
		gaps, err := resultGaps(ix, results, community)
		if err != nil {
			t.Fatal(err)
		}
		if len(proofs) != 1 || len(gaps) != 1+b2i(community) || len(gaps[len(gaps)-1].Leaves) != 50 {
			t.Fatalf("%d membership and %d exclusion multiproofs", len(proofs), len(gaps))
		}
		r := &proofRecord{head: []byte(`{"listVersion":7}`), results: appendResults(nil, results, "2026-05-01T00:00:00Z"), proofs: proofs, gaps: gaps}
		checkRoundTrip(t, r, proofFormatV2)
		checkRoundTrip(t, r, proofFormatV3)
		if v2, v3 := r.appendFormat(nil, proofFormatV2), r.appendBinary(nil); len(v3) >= len(v2)+len(v2)/10 {
			t.Fatalf("record of version 3 %d bytes, of version 2 %d", len(v3), len(v2))
		}
		checkRoundTrip(t, &proofRecord{head: r.head, results: r.results, proofs: proofs}, proofFormatV1)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
