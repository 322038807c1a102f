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
// URLs.
type Source struct {
	Name     string
	Location string
}

// ParseSourceFlag parses NAME=PATH_OR_URL.
func ParseSourceFlag(s string) (Source, error) {
	name, loc, ok := strings.Cut(s, "=")
	name, loc = strings.TrimSpace(name), strings.TrimSpace(loc)
	if !ok || loc == "" {
		return Source{}, cairn.Errorf(cairn.EINVALID, "source %q: want NAME=PATH_OR_URL", s)
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
func fetch(ctx context.Context, client *http.Client, loc string) (*fetched, error) {
	var r io.ReadCloser
	if strings.HasPrefix(loc, "http://") || strings.HasPrefix(loc, "https://") {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, loc, nil)
		if err != nil {
			return nil, err
		}
		resp, err := client.Do(req)
		if err != nil {
			return nil, fmt.Errorf("fetch %s: %w", loc, err)
		}
		if resp.StatusCode != http.StatusOK {
			resp.Body.Close()
			return nil, fmt.Errorf("fetch %s: HTTP %d", loc, resp.StatusCode)
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
	n, err := io.Copy(io.MultiWriter(tmp, h), r)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp.Name())
		return nil, fmt.Errorf("read %s: %w", loc, err)
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
