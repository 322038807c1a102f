package ingest

import (
	"bytes"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/screening"
)

// minPlainPart is the least a worker of ingestPlain is given to read.
const minPlainPart = 1 << 20

// ingestPlain parses and normalises the plain list at path (a list:<chain>
// source) straight into b, as ParsePlainList and the lister would, on one
// worker per CPU, each over its part of the file (parts start at a line);
// the parts' listings are joined in file order. Repeated addresses are left
// to the sort (ListingsBuilder.Sorted keeps one listing per key), so no set
// of the addresses is held: a list of millions costs its compact listings
// only, and the CPU of normalising them is shared by the cores.
func ingestPlain(path, source string, b *screening.ListingsBuilder) error {
	ticker := strings.ToUpper(strings.TrimSpace(strings.TrimPrefix(source, sourceListPrefix)))
	if ticker == "" {
		return cairn.Errorf(cairn.EINVALID, "plain list: empty ticker")
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	return ingestPlainParts(f, fi.Size(), ticker, source, int(min(int64(runtime.GOMAXPROCS(0)), max(fi.Size()/minPlainPart, 1))), b)
}

// ingestPlainParts is ingestPlain on at most n workers.
func ingestPlainParts(f io.ReaderAt, size int64, ticker, source string, n int, b *screening.ListingsBuilder) error {
	bounds, err := plainParts(f, size, n)
	if err != nil {
		return err
	}
	parts := make([]screening.ListingsBuilder, len(bounds)-1)
	errs := make([]error, len(parts))
	rec := Record{Source: ListSource(strings.ToLower(ticker)), Ticker: ticker, Category: CategorySanctions}
	var wg sync.WaitGroup
	for k := range parts {
		wg.Go(func() {
			lr := newLister(source)
			r := io.NewSectionReader(f, bounds[k], bounds[k+1]-bounds[k])
			errs[k] = scanPlain(r, k == 0, func(line []byte) error {
				r := rec
				r.Address = string(line)
				lr.add(&parts[k], r)
				return nil
			}, func(string) {})
		})
	}
	wg.Wait()
	for k := range parts {
		if errs[k] != nil {
			return errs[k]
		}
		b.Append(&parts[k])
	}
	return nil
}

// plainParts splits a file of size bytes into at most n parts that start
// at a line: the offsets of their starts, and size.
func plainParts(f io.ReaderAt, size int64, n int) ([]int64, error) {
	bounds := []int64{0}
	buf := make([]byte, maxPlainLine+1)
	for k := 1; k < n; k++ {
		at := max(size*int64(k)/int64(n)-1, bounds[len(bounds)-1])
		m, err := f.ReadAt(buf, at)
		if err != nil && err != io.EOF {
			return nil, err
		}
		// The part starts after the first line end at or after at. None
		// within a line's limit: that line is too long, and the part
		// before, which now reads to the end, reports it.
		j := bytes.IndexByte(buf[:m], '\n')
		if j < 0 {
			break
		}
		if start := at + int64(j) + 1; start < size && start > bounds[len(bounds)-1] {
			bounds = append(bounds, start)
		}
	}
	return append(bounds, size), nil
}
