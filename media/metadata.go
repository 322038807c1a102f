package media

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"github.com/cairn-dev/cairn"
)

// MaxMetadataBytes bounds the metadata form field.
const MaxMetadataBytes = 16 << 10

// ParseMetadata parses the metadata form field: one JSON object of at most
// MaxMetadataBytes. Anything else is EINVALID.
func ParseMetadata(s string) (map[string]any, error) {
	bad := func(why string) error {
		return cairn.Errorf(cairn.EINVALID, "metadata must be a JSON object: %s.", why).With("field", "metadata")
	}
	if len(s) > MaxMetadataBytes {
		return nil, bad("too large")
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, bad("not valid JSON")
	}
	if m == nil {
		return nil, bad("null")
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, bad("trailing data")
	}
	return m, nil
}
