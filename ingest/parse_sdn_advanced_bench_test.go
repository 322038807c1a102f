package ingest

import (
	"bytes"
	"io"
	"regexp"
	"runtime"
	"sync"
	"testing"
	"time"
)

// go test ./ingest -run '^$' -bench ParseSDNAdvanced -benchmem
//
// The synthetic documents are generated while they are read, never held in
// memory, so the peak heap reported is the parser's own.
func BenchmarkParseSDNAdvanced(b *testing.B) {
	excerpt := readTestdata(b, "ofac_xml/sdn_advanced_excerpt.xml")
	cases := []struct {
		name string
		doc  *synthDoc
	}{
		{"excerpt", &synthDoc{prefix: excerpt}},
		// The full file's shape: ~18k parties of which a few dozen list addresses.
		{"synthetic100MB_fewAddresses", newSynthDoc(b, excerpt, 100<<20, false)},
		// Every repeated party lists addresses: memory grows with the addresses.
		{"synthetic100MB_allAddresses", newSynthDoc(b, excerpt, 100<<20, true)},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(c.doc.size())
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ParseSDNAdvanced(c.doc.reader(), func(Record) error { return nil }); err != nil {
					b.Fatal(err)
				}
			}
			peak, records := measurePeakHeap(b, c.doc) // once, outside the timed loop
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
			b.ReportMetric(float64(records), "records")
			b.ReportMetric(float64(c.doc.size())/(1<<20), "input-MB")
		})
	}
}

// measurePeakHeap parses the document while sampling runtime.MemStats; it
// returns the highest HeapAlloc seen above the heap in use before the parse.
func measurePeakHeap(b *testing.B, doc *synthDoc) (uint64, int) {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base, peak := ms.HeapAlloc, ms.HeapAlloc
	done, wg := make(chan struct{}), sync.WaitGroup{}
	wg.Go(func() {
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		var m runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-t.C:
				runtime.ReadMemStats(&m)
				peak = max(peak, m.HeapAlloc)
			}
		}
	})
	n := 0
	_, err := ParseSDNAdvanced(doc.reader(), func(Record) error { n++; return nil })
	close(done)
	wg.Wait()
	if err != nil {
		b.Fatal(err)
	}
	return peak - base, n
}

var (
	partyRE   = regexp.MustCompile(`(?s)\s*<DistinctParty FixedRef="\d+">.*?</DistinctParty>`)
	entryRE   = regexp.MustCompile(`(?s)\s*<SanctionsEntry ID="\d+" ProfileID="\d+".*?</SanctionsEntry>`)
	profileRE = regexp.MustCompile(`(?:<Profile ID=|ProfileID=)"(\d+)"`)
)

// synthDoc is the excerpt with its real parties (and their sanctions
// entries) repeated reps times, profile ids renumbered on each repetition.
type synthDoc struct {
	prefix, middle, suffix []byte
	parties, entries       [][]byte
	reps                   int
}

// newSynthDoc repeats the parties with (or without) addresses until the
// document reaches about size bytes.
func newSynthDoc(b *testing.B, excerpt []byte, size int, withAddresses bool) *synthDoc {
	entryOf := map[string][]byte{}
	for _, e := range entryRE.FindAll(excerpt, -1) {
		entryOf[string(profileRE.FindSubmatch(e)[1])] = e
	}
	d := &synthDoc{}
	per := 0
	for _, p := range partyRE.FindAll(excerpt, -1) {
		if hasAddress(p) == withAddresses {
			e := entryOf[string(profileRE.FindSubmatch(p)[1])]
			d.parties, d.entries = append(d.parties, p), append(d.entries, e)
			per += len(p) + len(e) + 2*7
		}
	}
	endParties := bytes.Index(excerpt, []byte("\r\n  </DistinctParties>"))
	endEntries := bytes.Index(excerpt, []byte("\r\n  </SanctionsEntries>"))
	if len(d.parties) == 0 || endParties < 0 || endEntries < 0 {
		b.Fatal("excerpt structure not found")
	}
	d.prefix, d.middle, d.suffix = excerpt[:endParties], excerpt[endParties:endEntries], excerpt[endEntries:]
	d.reps = (size - len(excerpt)) / per
	return d
}

func (d *synthDoc) size() int64 {
	n, _ := io.Copy(io.Discard, d.reader())
	return n
}

func (d *synthDoc) reader() io.Reader {
	return io.MultiReader(bytes.NewReader(d.prefix), newBlockReader(d.parties, d.reps),
		bytes.NewReader(d.middle), newBlockReader(d.entries, d.reps), bytes.NewReader(d.suffix))
}

func newBlockReader(blocks [][]byte, reps int) *blockReader {
	r := &blockReader{blocks: blocks, reps: reps}
	for _, b := range blocks {
		r.idEnds = append(r.idEnds, profileRE.FindSubmatchIndex(b)[3])
	}
	return r
}

// blockReader yields blocks reps times, appending the repetition number
// (7 digits) to the profile id of each block.
type blockReader struct {
	blocks [][]byte
	idEnds []int // offset of the end of the profile id digits in each block
	reps   int
	k, i   int
	buf    []byte
	off    int
}

func (r *blockReader) Read(p []byte) (int, error) {
	for r.off == len(r.buf) {
		if r.k >= r.reps {
			return 0, io.EOF
		}
		blk, at := r.blocks[r.i], r.idEnds[r.i]
		var num [7]byte
		for j, v := 6, r.k; j >= 0; j, v = j-1, v/10 {
			num[j] = '0' + byte(v%10)
		}
		r.buf = append(append(append(r.buf[:0], blk[:at]...), num[:]...), blk[at:]...)
		r.off = 0
		if r.i++; r.i == len(r.blocks) {
			r.i, r.k = 0, r.k+1
		}
	}
	n := copy(p, r.buf[r.off:])
	r.off += n
	return n, nil
}

// hasAddress reports whether a party block lists a digital currency address
// (feature type ids of the excerpt's own dictionary).
func hasAddress(party []byte) bool {
	for _, id := range []string{"344", "345", "444", "566", "686", "687", "688", "689", "706", "726", "746",
		"887", "907", "989", "992", "998", "1007", "1008", "1167"} {
		if bytes.Contains(party, []byte(`FeatureTypeID="`+id+`"`)) {
			return true
		}
	}
	return false
}
