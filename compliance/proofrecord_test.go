package compliance

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/merkle"
	"github.com/cairn-dev/cairn/screening"
)

// testTopNodes is the top of the records of these tests: the first 16
// levels, which trees of 40,000 leaves exceed (the service's 20 levels
// hold them whole).
var testTopNodes = topNodesOf(16)

// noTops is the topSource of a service that has no top record.
func noTops(merkle.Hash, int) ([]merkle.Hash, error) { return nil, errRecord }

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
	r.proofs = []classProof{}
	for _, c := range m.classes() {
		p := classProof{Class: c}
		p.Root, p.Leaves, p.Proof, p.ProofFlags = m.multiproof()
		p.Values = make([][2]string, m.byte()%20)
		for i := range p.Values {
			p.Values[i] = [2]string{string(m.take(int(m.byte() % 16))), string(m.take(int(m.byte() % 64)))}
		}
		r.proofs = append(r.proofs, p)
	}
	if m.byte()&1 == 0 {
		return r // version 1: no exclusion parts
	}
	r.gaps = []gapProof{}
	for _, c := range m.classes() {
		p := gapProof{Class: c}
		p.Root, p.Leaves, p.Proof, p.ProofFlags = m.multiproof()
		p.Values = make([][3]string, m.byte()%20)
		for i := range p.Values {
			p.Values[i] = [3]string{string(m.take(int(m.byte() % 16))), string(m.take(int(m.byte() % 64))), string(m.take(int(m.byte() % 64)))}
		}
		r.gaps = append(r.gaps, p)
	}
	return r
}

// classes makes up to four class names, sorted and without repeats.
func (m *makings) classes() []string {
	var classes []string
	for range m.byte() % 5 {
		classes = append(classes, string(m.take(int(m.byte()%12))))
	}
	slices.Sort(classes)
	return slices.Compact(classes)
}

// multiproof makes the root, leaves, proof and flags of a multiproof.
func (m *makings) multiproof() (root merkle.Hash, leaves, proof []merkle.Hash, flags []bool) {
	copy(root[:], m.take(32))
	leaves, proof = m.hashes(), m.hashes()
	flags = make([]bool, m.byte())
	for i := range flags {
		flags[i] = m.byte()&1 == 1
	}
	return root, leaves, proof, flags
}

// checkRoundTrip: a record written in a format reads back as it was
// written (version 4 with the trees' tops from tops), and its document
// renders the same from either. A record of version 3 or 4 must have the
// leaves of its values (hashLeaves): it does not keep them; one of version
// 4 the shapes of its multiproofs.
func checkRoundTrip(t *testing.T, r *proofRecord, format byte, tops topSource) {
	t.Helper()
	rec := r.appendFormat([]byte("prefix"), format)
	if !bytes.HasPrefix(rec, []byte("prefix")) || rec[len("prefix")] != format || isZstd(rec[len("prefix"):]) {
		t.Fatalf("record %x does not start with its format %d", rec, format)
	}
	got, err := parseProofRecord(rec[len("prefix"):], tops)
	if err != nil {
		t.Fatalf("record %x does not read: %v", rec, err)
	}
	if format != proofFormatV4 {
		r = unshaped(r) // the versions of before keep no shapes
	}
	if !reflect.DeepEqual(got, r) {
		t.Fatalf("record of version %d reads as\n%.2000v\nwritten\n%.2000v", format, fmt.Sprintf("%+v", got), fmt.Sprintf("%+v", r))
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

// unshaped is a copy of r without the shapes of its multiproofs.
func unshaped(r *proofRecord) *proofRecord {
	out := *r
	out.proofs = slices.Clone(r.proofs)
	for i := range out.proofs {
		out.proofs[i].shape = shape{}
	}
	if r.gaps != nil {
		out.gaps = slices.Clone(r.gaps)
		for i := range out.gaps {
			out.gaps[i].shape = shape{}
		}
	}
	return &out
}

// checkFormats: a record round-trips in the format of before that fits it
// (version 1 without exclusion parts, else 2) and, its leaves made those
// of its values, in version 3.
func checkFormats(t *testing.T, r *proofRecord) {
	t.Helper()
	if r.gaps == nil {
		checkRoundTrip(t, r, proofFormatV1, nil)
		r.gaps = []gapProof{}
	} else {
		checkRoundTrip(t, r, proofFormatV2, nil)
	}
	r.hashLeaves()
	checkRoundTrip(t, r, proofFormatV3, nil)
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

// FuzzProofRecord: any bytes read as a record (a record of version 4
// with no top record) fail or give a record that writes and reads back
// the same (never a panic; counts are bounded by
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
	// Version 4 of a tree of one leaf, the root: no top, no steps.
	one := ResultProof{Leaves: []merkle.Hash{merkle.LeafHashStrings2("evm", "0x01")}, Proof: []merkle.Hash{}, ProofFlags: []bool{}, Values: [][2]string{{"evm", "0x01"}}}
	one.Root = one.Leaves[0]
	f.Add((&proofRecord{head: []byte("{}"), results: []byte("[]"), proofs: []classProof{{"sanctions", one, shape{nodes: []int{0}}}}, gaps: []gapProof{}}).appendBinary(nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		if r, err := parseProofRecord(data, noTops); err == nil {
			checkRoundTrip(t, r, data[0], noTops)
		}
		checkFormats(t, recordFrom(data))
	})
}

// TestProofRecordMalformed: a record cut short, with bytes after its end,
// with flag bits past the last flag or with classes out of order does not
// read, in the format of today and in the one of before.
func TestProofRecordMalformed(t *testing.T) {
	p := ResultProof{Leaves: []merkle.Hash{{1}}, Proof: []merkle.Hash{{2}, {3}}, ProofFlags: []bool{true, false, false}, Values: [][2]string{{"evm", "0x01"}}}
	good := &proofRecord{head: []byte(`{"a":1}`), results: []byte(`[]`), proofs: []classProof{{"community", p, shape{}}, {"sanctions", p, shape{}}}, gaps: []gapProof{}}
	for _, format := range []byte{proofFormatV2, proofFormatV3} {
		rec := good.appendFormat(nil, format)
		if _, err := parseProofRecord(rec, noTops); err != nil {
			t.Fatal(err)
		}
		for n := range len(rec) {
			if _, err := parseProofRecord(rec[:n], noTops); err == nil {
				t.Fatalf("record of version %d cut to %d of %d bytes reads", format, n, len(rec))
			}
		}
		if _, err := parseProofRecord(append(slices.Clip(rec), 0), noTops); err == nil {
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
		if _, err := parseProofRecord(bad, noTops); err == nil {
			t.Fatalf("a flag bit past the last flag reads in version %d", format)
		}
		swapped := &proofRecord{head: good.head, results: good.results, proofs: []classProof{good.proofs[1], good.proofs[0]}, gaps: good.gaps}
		if _, err := parseProofRecord(swapped.appendFormat(nil, format), noTops); err == nil {
			t.Fatalf("classes out of name order read in version %d", format)
		}
		noObject := &proofRecord{head: []byte(`[]`), results: good.results, proofs: good.proofs, gaps: good.gaps}
		if _, err := parseProofRecord(noObject.appendFormat(nil, format), noTops); err == nil {
			t.Fatalf("a header that is not an object reads in version %d", format)
		}
	}
	for _, rec := range [][]byte{{0x00}, {0x05}, {proofFormatV3, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x0f}} {
		if _, err := parseProofRecord(rec, noTops); err == nil {
			t.Fatalf("record %x reads", rec)
		}
	}
}

// indexTops is the topSource of the trees of ix: the top of the tree
// whose root is asked for.
func indexTops(ix *screening.Index) topSource {
	return func(root merkle.Hash, n int) ([]merkle.Hash, error) {
		for _, class := range []string{screening.ClassSanctions, screening.ClassCommunity} {
			for _, exclusion := range []bool{false, true} {
				if top := ix.Top(class, exclusion, n); len(top) == n && top[0] == root {
					return top, nil
				}
			}
		}
		return nil, errRecord
	}
}

// TestProofRecordFormatsAgree: the record of a real screening (listed
// addresses and clear ones, both trees; a list of 40,000 addresses, whose
// trees are larger than their tops, and one of 3,000, whose trees are
// whole in their tops) gives the same document from every format that can
// hold it: version 4 as written today, the versions of before, and
// version 1 of the same screening without its exclusion parts as it was
// before clear results were proven. Version 4 keeps only the proof hashes
// below the tops, and fails to read without the tops.
func TestProofRecordFormatsAgree(t *testing.T) {
	for _, n := range []int{40_000, 3000} {
		ls := SyntheticListings(n)
		ix, err := screening.Build(7, time.Unix(0, 0), ls)
		if err != nil {
			t.Fatal(err)
		}
		for _, community := range []bool{false, true} {
			results, loc, err := ix.ScreenLocated(BenchQueries(ls), community, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			multiproofs := func(cut bool) ([]classProof, []gapProof) {
				proofs, err := resultProofs(ix, results, loc, testTopNodes, cut)
				if err != nil {
					t.Fatal(err)
				}
				gaps, err := resultGaps(ix, results, loc, community, testTopNodes, cut)
				if err != nil {
					t.Fatal(err)
				}
				return proofs, gaps
			}
			proofs, gaps := multiproofs(false)
			if len(proofs) != 1 || len(gaps) != 1+b2i(community) || len(gaps[len(gaps)-1].Leaves) != 50 {
				t.Fatalf("%d membership and %d exclusion multiproofs", len(proofs), len(gaps))
			}
			r := &proofRecord{head: []byte(`{"listVersion":7}`), results: appendResults(nil, results, "2026-05-01T00:00:00Z"), proofs: proofs, gaps: gaps}
			for _, format := range []byte{proofFormatV2, proofFormatV3, proofFormatV4} {
				checkRoundTrip(t, r, format, indexTops(ix))
			}
			v3, v4 := r.appendFormat(nil, proofFormatV3), r.appendBinary(nil)
			if v4[0] != proofFormatV4 {
				t.Fatalf("record of format %d", v4[0])
			}
			// Screenings cut their multiproofs to the hashes a record of
			// version 4 keeps: the same record, byte for byte.
			cutProofs, cutGaps := multiproofs(true)
			cut := &proofRecord{head: r.head, results: r.results, proofs: cutProofs, gaps: cutGaps}
			if got := cut.appendBinary(nil); !bytes.Equal(got, v4) {
				t.Fatalf("list of %d: the record of the cut multiproofs (%d bytes) is not the record of the whole ones (%d)", n, len(got), len(v4))
			}
			if whole := n < testTopNodes/2; !whole && len(cutProofs[0].Proof) >= len(proofs[0].Proof) {
				t.Fatalf("list of %d: cut multiproof of %d hashes, the whole one %d", n, len(cutProofs[0].Proof), len(proofs[0].Proof))
			}
			// All proof hashes are left to the top records when the trees
			// are whole in them (6,000 nodes); when they are not (80,000
			// nodes), the leaves' siblings below the top are kept, a few
			// dozen.
			hashes, below := 0, 0
			for _, sh := range []shape{proofs[0].shape, gaps[len(gaps)-1].shape} {
				merkle.MultiProofWalk(sh.nodes, func(s int, pair bool) {
					if !pair {
						hashes++
						below += b2i(s >= sh.top)
					}
				})
			}
			if whole := n < testTopNodes/2; whole != (below == 0) || below > hashes/4 || len(v4) > len(v3)-32*(hashes-below)+512 {
				t.Fatalf("list of %d: record of version 4 %d bytes, of version 3 %d, for %d proof hashes, %d below the top", n, len(v4), len(v3), hashes, below)
			}
			if _, err := parseProofRecord(v4, noTops); err == nil {
				t.Fatal("a record of version 4 reads without the tops of its trees")
			}
			checkRoundTrip(t, &proofRecord{head: r.head, results: r.results, proofs: proofs}, proofFormatV1, nil)
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestProofRecordV4Malformed: a record of version 4 cut short, whose
// tree indices are not descending, with one proof hash too many or too few below the
// top, or whose top record is of another size does not read.
func TestProofRecordV4Malformed(t *testing.T) {
	ls := SyntheticListings(40_000)
	ix, err := screening.Build(7, time.Unix(0, 0), ls)
	if err != nil {
		t.Fatal(err)
	}
	results, loc, err := ix.ScreenLocated(BenchQueries(ls)[:3], false, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	proofs, err := resultProofs(ix, results, loc, testTopNodes, false)
	if err != nil {
		t.Fatal(err)
	}
	good := &proofRecord{head: []byte(`{}`), results: []byte(`[]`), proofs: proofs, gaps: []gapProof{}}
	rec := good.appendBinary(nil)
	if _, err := parseProofRecord(rec, indexTops(ix)); err != nil {
		t.Fatal(err)
	}
	// The record in its parts: format and class count, the multiproof
	// up to its count of hashes below the top, those hashes, the rest.
	p := proofs[0]
	head := binary.AppendUvarint(binary.AppendUvarint(append([]byte{proofFormatV4, 1}, p.Root[:]...), uint64(p.top)), uint64(len(p.nodes)))
	for _, n := range p.nodes {
		head = binary.AppendUvarint(head, uint64(n))
	}
	m, k := binary.Uvarint(rec[len(head):])
	if k <= 0 || m == 0 || m > 100 {
		t.Fatalf("%d hashes below the top", m)
	}
	below := rec[len(head)+k : len(head)+k+32*int(m)]
	rest := rec[len(head)+k+32*int(m):]
	for n := range len(rec) {
		if _, err := parseProofRecord(rec[:n], indexTops(ix)); err == nil {
			t.Fatalf("record cut to %d of %d bytes reads", n, len(rec))
		}
	}
	join := func(hashes []byte) []byte {
		out := binary.AppendUvarint(slices.Clone(head), uint64(len(hashes)/32))
		return append(append(out, hashes...), rest...)
	}
	if _, err := parseProofRecord(join(below), indexTops(ix)); err != nil {
		t.Fatalf("the record put together again does not read: %v", err)
	}
	for name, bad := range map[string][]byte{
		"a hash too many": join(append(slices.Clone(below), make([]byte, 32)...)),
		"a hash too few":  join(below[:len(below)-32]),
	} {
		if _, err := parseProofRecord(bad, indexTops(ix)); err == nil {
			t.Fatalf("a record with %s below the top reads", name)
		}
	}
	for name, nodes := range map[string][]int{
		"ascending": {p.nodes[2], p.nodes[1], p.nodes[0]},
		"repeated":  {p.nodes[0], p.nodes[0], p.nodes[2]},
	} {
		bad := &proofRecord{head: good.head, results: good.results, proofs: []classProof{{p.Class, p.ResultProof, shape{nodes: nodes, top: p.top}}}, gaps: good.gaps}
		if _, err := parseProofRecord(bad.appendFormat(nil, proofFormatV4), indexTops(ix)); err == nil {
			t.Fatalf("a record with its tree indices %s reads", name)
		}
	}
	short := func(root merkle.Hash, n int) ([]merkle.Hash, error) {
		return ix.Top(screening.ClassSanctions, false, n-1), nil
	}
	if _, err := parseProofRecord(rec, short); err == nil {
		t.Fatal("a record reads with a top record of another size")
	}
}
