// Package verify checks the proof documents of a cairn server from the Go
// client: it fetches a screening proof or a Merkle proof as the server
// sent it (package client) and runs compliance.Verify on it, the checks
// cairn verify-proof prints: the results hash, the statuses and their
// Merkle proofs, the data snapshots' digests, the issuer's signature and,
// with VerifyOptions.Anchors, the roots the chain recorded.
//
// It is the one place the client side reaches package compliance: client
// itself stays the standard library and wire (deps_test.go checks both).
package verify

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/cairn-dev/cairn/client"
	"github.com/cairn-dev/cairn/compliance"
)

// maxFetch bounds a document or snapshot a verification downloads.
const maxFetch = 1 << 30

// Screening fetches the stored proof document of a screening from c's
// server and verifies it. opts.Source defaults to the document's URL, so
// that the signing keys are those the same server publishes, and
// opts.Fetch to FetchURL; the rest of opts is compliance.Verify's.
func Screening(ctx context.Context, c *client.Client, screeningID string, opts compliance.VerifyOptions) (compliance.Report, error) {
	doc, err := c.ScreeningProofJSON(ctx, screeningID)
	if err != nil {
		return compliance.Report{}, err
	}
	return verifyAt(ctx, doc, c.URL("/v1/compliance/proofs/"+url.PathEscape(screeningID)), opts)
}

// MerkleProof fetches the Merkle proof of an address at a list version
// ("" for the current one, see client.GetMerkleProofAt) and verifies it,
// with opts completed as Screening does.
func MerkleProof(ctx context.Context, c *client.Client, address, chain, listVersion string, opts compliance.VerifyOptions) (compliance.Report, error) {
	doc, err := c.MerkleProofJSON(ctx, address, chain, listVersion)
	if err != nil {
		return compliance.Report{}, err
	}
	return verifyAt(ctx, doc, c.URL("/v1/compliance/merkle-proof"), opts)
}

// verifyAt verifies doc, read from source.
func verifyAt(ctx context.Context, doc []byte, source string, opts compliance.VerifyOptions) (compliance.Report, error) {
	if opts.Source == "" {
		opts.Source = source
	}
	if opts.Fetch == nil {
		opts.Fetch = FetchURL
	}
	return compliance.Verify(ctx, doc, opts)
}

// FetchURL opens an http(s) URL. Nothing else is followed: the URLs come
// from the document under check, which must not make the verifier read
// its own files.
func FetchURL(ctx context.Context, raw string) (io.ReadCloser, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	switch u.Scheme {
	case "http", "https":
		ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, raw, nil)
		if err != nil {
			cancel()
			return nil, err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			cancel()
			return nil, err
		}
		if resp.StatusCode != http.StatusOK {
			resp.Body.Close()
			cancel()
			return nil, fmt.Errorf("GET %s: %s", raw, resp.Status)
		}
		return struct {
			io.Reader
			io.Closer
		}{io.LimitReader(resp.Body, maxFetch), closerFunc(func() error { cancel(); return resp.Body.Close() })}, nil
	}
	return nil, fmt.Errorf("unsupported URL scheme %q", u.Scheme)
}

type closerFunc func() error

func (f closerFunc) Close() error { return f() }
