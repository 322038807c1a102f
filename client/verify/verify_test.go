package verify_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/client"
	"github.com/cairn-dev/cairn/client/verify"
	"github.com/cairn-dev/cairn/compliance"
)

// served starts a signing service with the sanctions lists and returns
// it with a Fetch that reads the URLs its documents name (its public URL,
// http://cairn.test) from it.
func served(t *testing.T) (*apitest.Server, func(ctx context.Context, u string) (io.ReadCloser, error)) {
	ts := apitest.NewServer(t, apitest.SanctionsLists(t), apitest.Signed(t))
	return ts, func(ctx context.Context, u string) (io.ReadCloser, error) {
		return verify.FetchURL(ctx, strings.Replace(u, "http://cairn.test", ts.URL, 1))
	}
}

// checks names the checks of a report, failed ones marked.
func checks(r compliance.Report) string {
	var names []string
	for _, c := range r.Checks {
		if !c.OK {
			names = append(names, "FAILED "+c.Name)
			continue
		}
		names = append(names, c.Name)
	}
	return strings.Join(names, " ")
}

// TestScreening: the proof document a screening stored, fetched through
// the client, passes every check, the signature with the key the server
// publishes and the digests of the snapshots it serves included; the
// same document with another key trusted fails its signature, and an
// unknown screening is the server's 404.
func TestScreening(t *testing.T) {
	ts, fetch := served(t)
	a := ts.Register(t, "")
	s := ts.Do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": apitest.Addresses(2)}).Must(t, http.StatusOK)
	id := s.JSON["proof"].(map[string]any)["screeningId"].(string)
	c := client.New(ts.URL, "")
	r, err := verify.Screening(context.Background(), c, id, compliance.VerifyOptions{Fetch: fetch})
	if err != nil || !r.OK() {
		t.Fatalf("stored proof: %v %s", err, checks(r))
	}
	for _, want := range []string{"results-hash", "statuses", "snapshot", "signature"} {
		if !strings.Contains(" "+checks(r)+" ", " "+want+" ") {
			t.Errorf("check %s did not run: %s", want, checks(r))
		}
	}
	other := compliance.SigningKey{KeyID: "other", Alg: compliance.SignatureAlg, PublicKey: strings.Repeat("ab", 32)}
	r, err = verify.Screening(context.Background(), c, id, compliance.VerifyOptions{Fetch: fetch, Keys: []compliance.SigningKey{other}})
	if f, failed := r.Failure(); err != nil || !failed || f.Name != "signature" {
		t.Fatalf("another key trusted: %v %s", err, checks(r))
	}
	_, err = verify.Screening(context.Background(), c, "01J00000000000000000000000", compliance.VerifyOptions{Fetch: fetch})
	var ce *client.Error
	if !errors.As(err, &ce) || ce.Status != http.StatusNotFound {
		t.Fatalf("unknown screening: %v", err)
	}
}

// TestMerkleProof: the Merkle proof of a listed address, fetched through
// the client, verifies against its root.
func TestMerkleProof(t *testing.T) {
	ts, fetch := served(t)
	a := ts.Register(t, "")
	c := client.New(ts.URL, a.Key)
	r, err := verify.MerkleProof(context.Background(), c, apitest.Tornado, "ethereum", "", compliance.VerifyOptions{Fetch: fetch})
	if err != nil || !r.OK() || checks(r) != "proof exclusion" {
		t.Fatalf("Merkle proof: %v %s", err, checks(r))
	}
}
