package ingest

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"strings"

	cairn "github.com/cairn-dev/cairn"
)

// maxPlainLine bounds one line of a plain list.
const maxPlainLine = 4 << 10

// ParsePlainList reads a plain list with one address per line, the format
// of the public per-asset lists (sanctioned_addresses_XBT.txt), and emits
// one Record per distinct address with source ListSource(chain), where chain
// is the lower-case ticker. Blank lines and lines starting with '#' are
// skipped; a UTF-8 byte order mark and CR line ends are accepted. A line with
// inner whitespace is skipped and counted; a line longer than 4 KiB is an
// error. Records are emitted once the whole list has been read.
func ParsePlainList(r io.Reader, ticker string, emit func(Record) error) (Stats, error) {
	st := newStats()
	ticker = strings.ToUpper(strings.TrimSpace(ticker))
	if ticker == "" {
		return st, cairn.Errorf(cairn.EINVALID, "plain list: empty ticker")
	}
	source := ListSource(strings.ToLower(ticker))
	// A plain list names no entity, so an address is its own identity: a
	// set of addresses stands in for the emitter's (entity, ticker,
	// address) set, at a fraction of its cost on lists of millions.
	n := lineHint(r)
	addrs := make([]string, 0, n)
	seen := make(map[string]struct{}, n)
	err := scanPlain(r, true, func(line []byte) error {
		st.EntitiesSeen++
		if _, dup := seen[string(line)]; dup { // no allocation for the lookup
			st.Duplicates++
			return nil
		}
		a := string(line)
		seen[a] = struct{}{}
		addrs = append(addrs, a)
		return nil
	}, func(reason string) {
		st.EntitiesSeen++
		st.skip(reason)
	})
	if err != nil {
		return st, err
	}
	st.Records, st.ByTicker[ticker] = len(addrs), len(addrs)
	if len(addrs) == 0 {
		delete(st.ByTicker, ticker)
	}
	for _, a := range addrs {
		if err := emit(Record{Source: source, Ticker: ticker, Address: a, Category: CategorySanctions}); err != nil {
			return st, err
		}
	}
	return st, nil
}

// scanPlain calls address with each address line of a plain list (trimmed
// of surrounding white space; blank lines and '#' comments left out), and
// skipped with the reason for each line that cannot be an address. bom:
// r starts the list, so a UTF-8 byte order mark is dropped. A line longer
// than maxPlainLine is an error. The line passed to address is valid only
// until it returns.
func scanPlain(r io.Reader, bom bool, address func(line []byte) error, skipped func(reason string)) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, maxPlainLine), maxPlainLine)
	for n := 1; sc.Scan(); n++ {
		line := sc.Bytes()
		if n == 1 && bom {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
		}
		line = bytes.TrimSpace(line)
		switch {
		case len(line) == 0 || line[0] == '#':
		case len(line) > maxAddressLen:
			skipped("address too long")
		case bytes.ContainsAny(line, " \t\r\n"):
			skipped("address contains whitespace")
		default:
			if err := address(line); err != nil {
				return err
			}
		}
	}
	return scanErr(sc.Err(), "plain list", maxPlainLine)
}

// lineHint guesses how many addresses a plain list read from a file holds
// (its size over 43 bytes, an EVM address and its line end; at most 16M), so
// that the set and slice of a list of millions are sized once rather than
// grown; 0 when r is not a file.
func lineHint(r io.Reader) int {
	f, ok := r.(interface{ Stat() (os.FileInfo, error) })
	if !ok {
		return 0
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return 0
	}
	return int(min(fi.Size()/43, 16<<20))
}
