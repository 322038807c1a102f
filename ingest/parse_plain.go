package ingest

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
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
	var out []Record
	em := newEmitter(func(rec Record) error { out = append(out, rec); return nil }, &st)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4<<10), maxPlainLine)
	for n := 1; sc.Scan(); n++ {
		line := sc.Bytes()
		if n == 1 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
		}
		s := strings.TrimSpace(string(line))
		if s == "" || s[0] == '#' {
			continue
		}
		st.EntitiesSeen++
		_ = em.add(Record{Source: source, Ticker: ticker, Address: s})
	}
	if err := sc.Err(); err != nil {
		if err == bufio.ErrTooLong {
			return st, cairn.Errorf(cairn.EINVALID, "plain list: line longer than %d bytes", maxPlainLine)
		}
		return st, fmt.Errorf("plain list: %w", err)
	}
	for _, rec := range out {
		if err := emit(rec); err != nil {
			return st, err
		}
	}
	return st, nil
}
