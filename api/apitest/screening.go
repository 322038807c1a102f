package apitest

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-dev/cairn/compliance"
	"github.com/cairn-dev/cairn/internal/wiring"
)

var (
	//go:embed testdata/sanctioned_addresses_ETH.txt
	ethList []byte
	//go:embed testdata/sanctioned_addresses_XBT.txt
	xbtList []byte
)

// ListFiles writes the OFAC lists of ETH and BTC addresses of testdata
// (Tornado is listed) to files of the test and returns their paths.
func ListFiles(t testing.TB) (eth, xbt string) {
	dir := t.TempDir()
	eth, xbt = filepath.Join(dir, "eth.txt"), filepath.Join(dir, "xbt.txt")
	must(t, os.WriteFile(eth, ethList, 0o600))
	must(t, os.WriteFile(xbt, xbtList, 0o600))
	return eth, xbt
}

// SanctionsLists is a setup that serves the lists of ListFiles, ingested
// as cairn serve ingests its --source lists.
func SanctionsLists(t testing.TB) func(*wiring.Parts) {
	eth, xbt := ListFiles(t)
	return Lists(t, "list:ETH="+eth, "list:XBT="+xbt)
}

// Signed is a setup that signs the screening proof documents with a
// fixed Ed25519 key (its seed 32 bytes of 9), as cairn serve signs with
// its data dir's key; GET /v1/compliance/signing-keys publishes it.
func Signed(t testing.TB) func(*wiring.Parts) {
	s, err := compliance.NewSigner(bytes.Repeat([]byte{9}, 32), nil)
	must(t, err)
	return func(p *wiring.Parts) { p.Signer = s }
}

// Tornado is an address listed in sanctioned_addresses_ETH.txt.
const Tornado = "0x8589427373D6D84E98730D7795D8F6F8731FDA16"

// Addresses returns n screening items of one listed address.
func Addresses(n int) []map[string]any {
	out := make([]map[string]any, n)
	for i := range out {
		out[i] = map[string]any{"address": Tornado, "chain": "ethereum"}
	}
	return out
}

// CheckResultsHash checks that the resultsHash of the screening answer r
// is the SHA-256 of the results as served and as stored with the proof.
func (c *Client) CheckResultsHash(t testing.TB, key string, r *Response) {
	t.Helper()
	var served struct {
		Results json.RawMessage `json:"results"`
		Proof   struct {
			ScreeningID string `json:"screeningId"`
			ResultsHash string `json:"resultsHash"`
		} `json:"proof"`
	}
	if err := json.Unmarshal(r.Body, &served); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(served.Results)
	if hex.EncodeToString(sum[:]) != served.Proof.ResultsHash {
		t.Fatalf("resultsHash %s is not the SHA-256 of the results served", served.Proof.ResultsHash)
	}
	doc := c.Do(t, "GET", "/v1/compliance/proofs/"+served.Proof.ScreeningID, key, nil).Must(t, 200)
	var stored struct {
		Results     json.RawMessage `json:"results"`
		ResultsHash string          `json:"resultsHash"`
	}
	if err := json.Unmarshal(doc.Body, &stored); err != nil {
		t.Fatal(err)
	}
	sum = sha256.Sum256(stored.Results)
	if hex.EncodeToString(sum[:]) != stored.ResultsHash || stored.ResultsHash != served.Proof.ResultsHash {
		t.Fatalf("stored resultsHash %s, SHA-256 of the stored results %x", stored.ResultsHash, sum)
	}
}

// Escalate has three established developer accounts (paid by an
// administrator's credit grant) report addr, which puts it into the
// community source.
func (c *Client) Escalate(t testing.TB, addr string) {
	t.Helper()
	for i := range 3 {
		r := c.Register(t, "")
		c.Do(t, "POST", "/v1/admin/credits", AdminToken, map[string]any{"developerId": r.DeveloperID, "amount": 50, "reason": "test"}).Must(t, 200)
		rep := c.Do(t, "POST", "/v1/compliance/report", r.Key, map[string]any{"address": addr, "chain": "ethereum", "category": "scam",
			"reason": "drained a wallet"}).Must(t, 201)
		if i == 2 && rep.JSON["autoEscalated"] != true {
			t.Fatalf("the third established reporter did not escalate: %s", rep.Body)
		}
	}
}

// EVMChains are EVM chain identifiers a client may send; an address listed
// under any EVM asset must screen sanctioned on each of them.
var EVMChains = []string{"ethereum", "bsc", "polygon", "arbitrum", "optimism", "base", "avalanche", "ethereum-classic",
	"fantom", "gnosis", "linea", "zksync", "celo", "blast"}

// ScreenStatus screens one ETH address with community listings and
// returns its status.
func (c *Client) ScreenStatus(t testing.TB, key, addr string) string {
	t.Helper()
	r := c.Do(t, "POST", "/v1/compliance/screen", key, map[string]any{
		"addresses": []map[string]any{{"address": addr, "chain": "ethereum"}}, "includeCommunity": true}).Must(t, 200)
	return r.JSON["results"].([]any)[0].(map[string]any)["status"].(string)
}

// ListVersion is the version of the sanctions list the service serves.
func (c *Client) ListVersion(t testing.TB) float64 {
	t.Helper()
	return c.Do(t, "GET", "/v1/compliance/stats", "", nil).Must(t, 200).JSON["compliance"].(map[string]any)["listVersion"].(float64)
}

// ReportBody is a community report of an ETH address as a scam.
func ReportBody(addr string) map[string]any {
	return map[string]any{"address": addr, "chain": "ethereum", "category": "scam", "reason": "drained a wallet"}
}
