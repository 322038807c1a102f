package ingest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	cairn "github.com/cairn-dev/cairn"
)

// maxFtMLine bounds one JSON line of a FollowTheMoney export.
const maxFtMLine = 16 << 20

// ftmLine is the part of a FollowTheMoney entity the parser reads.
type ftmLine struct {
	ID         string `json:"id"`
	Caption    string `json:"caption"`
	Schema     string `json:"schema"`
	Properties struct {
		PublicKey []string          `json:"publicKey"`
		Currency  []string          `json:"currency"`
		Holder    []json.RawMessage `json:"holder"`
		Topics    []string          `json:"topics"`
		Name      []string          `json:"name"`
	} `json:"properties"`
	Datasets []string `json:"datasets"`
}

func (e *ftmLine) displayName() string {
	if c := strings.TrimSpace(e.Caption); c != "" {
		return c
	}
	if len(e.Properties.Name) > 0 {
		return strings.TrimSpace(e.Properties.Name[0])
	}
	return ""
}

// ftmWallet is the compact form of a CryptoWallet kept until holders resolve.
type ftmWallet struct {
	id               string
	keys, currencies []string
	holders          []string // holder entity ids
	inlineNames      map[string]string
	topics, datasets []string
}

// forEachFtMLine calls fn with each non-empty line of a JSON-lines stream.
func forEachFtMLine(r io.Reader, fn func(n int, line []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxFtMLine)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if err := fn(n, line); err != nil {
			return err
		}
	}
	return scanErr(sc.Err(), "ftm", maxFtMLine)
}

// scanErr is the error of a line scanner of the format what whose lines
// are at most max bytes: an invalid list for a longer line.
func scanErr(err error, what string, max int) error {
	if err == bufio.ErrTooLong {
		return cairn.Errorf(cairn.EINVALID, "%s: line longer than %d bytes", what, max)
	} else if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

func decodeFtMLine(n int, line []byte, e *ftmLine) error {
	*e = ftmLine{}
	if err := json.Unmarshal(line, e); err != nil {
		if _, ok := err.(*json.UnmarshalTypeError); ok {
			return errShape
		}
		return cairn.Errorf(cairn.EINVALID, "ftm: line %d: %v", n, err)
	}
	return nil
}

// errShape marks a line that is valid JSON but not a FollowTheMoney entity
// of the expected shape; it is skipped and counted.
var errShape = cairn.Errorf(cairn.EINVALID, "ftm: unexpected entity shape")

// parseHolders splits holder values into ids; nested exports inline the
// holder entity, whose caption is then the name.
func parseHolders(raw []json.RawMessage) (ids []string, names map[string]string) {
	for _, h := range raw {
		var id string
		if json.Unmarshal(h, &id) == nil {
			if id = strings.TrimSpace(id); id != "" {
				ids = append(ids, id)
			}
			continue
		}
		var ent ftmLine
		if json.Unmarshal(h, &ent) == nil && ent.ID != "" {
			ids = append(ids, ent.ID)
			if n := ent.displayName(); n != "" {
				if names == nil {
					names = map[string]string{}
				}
				names[ent.ID] = n
			}
		}
	}
	return ids, names
}
