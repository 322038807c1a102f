package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/cairn-dev/cairn"
)

// Source is one configured sanctions source: a name (gov_sdn,
// aggregated_sanctions or list:<chain>) and where to read it. gov_sdn takes
// an SDN_ADVANCED.XML or SDN_ENHANCED.XML, or "sdn.csv,sdn_comments.csv";
// aggregated_sanctions an OpenSanctions FtM JSON-lines file; list:<chain> a
// plain list, one address per line. Locations are file paths or http(s)
// URLs. Header is sent with every request of a source fetched over HTTP
// (--source-header): a key there need not sit in the URL. A location is
// shown and logged only through RedactLocation.
type Source struct {
	Name     string
	Location string
	Header   http.Header
}

// ParseSourceFlag parses NAME=PATH_OR_URL.
func ParseSourceFlag(s string) (Source, error) {
	name, loc, ok := strings.Cut(s, "=")
	name, loc = strings.TrimSpace(name), strings.TrimSpace(loc)
	if !ok || loc == "" {
		return Source{}, cairn.Errorf(cairn.EINVALID, "source %q: want NAME=PATH_OR_URL", RedactText(s))
	}
	switch {
	case name == SourceGovSDN, name == SourceAggregated:
	case strings.HasPrefix(name, sourceListPrefix) && len(name) > len(sourceListPrefix):
	default:
		return Source{}, cairn.Errorf(cairn.EINVALID, "source %q: name must be gov_sdn, aggregated_sanctions or list:<chain>", name)
	}
	return Source{Name: name, Location: loc}, nil
}

// fetched is a raw source copied to a local temporary file with its digest.
type fetched struct {
	path   string
	sha256 string
	size   int64
}

// fetch copies one location (file or URL) to a temporary file, hashing it
// on the way, so that parsing and snapshotting read a stable local copy
// with bounded memory.
//
// A download over HTTP stops at maxBytes (0: DefaultMaxSourceBytes): a
// source that is larger fails, whether it announces its length or not.
//
// Errors name the location redacted (RedactLocation), never the header.
func fetch(ctx context.Context, client *http.Client, loc string, header http.Header, maxBytes int64) (*fetched, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxSourceBytes
	}
	var r io.ReadCloser
	limit := int64(-1)
	shown := RedactLocation(loc)
	if isHTTP(loc) {
		limit = maxBytes
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, loc, nil)
		if err != nil {
			return nil, fmt.Errorf("fetch %s: not a valid URL", shown)
		}
		for k, vs := range header {
			req.Header[k] = vs
		}
		resp, err := client.Do(req)
		if err != nil {
			return nil, fmt.Errorf("fetch %s: %w", shown, transportError(err))
		}
		if resp.StatusCode != http.StatusOK {
			resp.Body.Close()
			return nil, fmt.Errorf("fetch %s: HTTP %d", shown, resp.StatusCode)
		}
		if resp.ContentLength > limit {
			resp.Body.Close()
			return nil, errTooLarge(shown, limit)
		}
		r = resp.Body
	} else {
		f, err := os.Open(loc)
		if err != nil {
			return nil, err
		}
		r = f
	}
	defer r.Close()
	tmp, err := os.CreateTemp("", "cairn-source-*")
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	src := io.Reader(r)
	if limit >= 0 {
		src = io.LimitReader(r, limit+1)
	}
	n, err := io.Copy(io.MultiWriter(tmp, h), src)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil && limit >= 0 && n > limit {
		err = errTooLarge(shown, limit)
		os.Remove(tmp.Name())
		return nil, err
	}
	if err != nil {
		os.Remove(tmp.Name())
		return nil, fmt.Errorf("read %s: %w", shown, transportError(err))
	}
	return &fetched{path: tmp.Name(), sha256: hex.EncodeToString(h.Sum(nil)), size: n}, nil
}

// OFACSDNAdvancedURL is where OFAC publishes SDN_ADVANCED.XML.
const OFACSDNAdvancedURL = "https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN_ADVANCED.XML"

// DefaultSources are the public sources a server ingests when it is given
// none: the OFAC SDN list as gov_sdn.
func DefaultSources() []Source {
	return []Source{{Name: SourceGovSDN, Location: OFACSDNAdvancedURL}}
}

// DefaultMaxSourceBytes is the largest source download by default (1 GiB:
// SDN_ADVANCED.XML is about 120 MB).
const DefaultMaxSourceBytes = 1 << 30

func errTooLarge(loc string, limit int64) error {
	return fmt.Errorf("fetch %s: source larger than the limit of %d bytes (--ingest-max-bytes)", loc, limit)
}
