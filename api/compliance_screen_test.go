package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/compliance"
	"github.com/cairn-dev/cairn/screening"
	"github.com/gin-gonic/gin"
)

// screenBodies are request bodies of every kind: the common form, what
// only encoding/json reads, and what it refuses.
var screenBodies = []string{
	`{"addresses":[{"address":"0x7F367cC41522cE07553e823bf3be79A889DEbe1B","chain":"ethereum"},{"address":"bc1q","chain":"bitcoin"}]}`,
	" \n{ \"addresses\" : [ { \"chain\" : \"tron\" , \"address\" : \"T\" } ] , \"includeCommunity\" : false }\r\n\t",
	`{"includeCommunity":true,"addresses":[]}`,
	`{"addresses":[{}]}`,
	`{"addresses":[{"address":"a"}],"includeCommunity":null}`,
	`{"addresses":null}`,
	`{}`,
	`{"Addresses":[{"Address":"a","CHAIN":"b"}]}`,
	`{"addresses":[{"address":"a\u0041\"","chain":"é"}]}`,
	`{"addresses":[{"address":"a","address":"b"}]}`,
	`{"addresses":[],"addresses":[{"address":"a"}]}`,
	`{"addresses":[{"address":"a","chain":"b","memo":1}],"other":{"x":[1,2]}}`,
	`{"addresses":[{"address":"a","chain":"b"}]} {}`,
	`{"addresses":[{"address":"a","chain":"b"}]}x`,
	`{"addresses":[{"address":"a","chain":"b"},]}`,
	`{"addresses":[{"address":1}]}`,
	`{"addresses":{"address":"a"}}`,
	`{"includeCommunity":truex}`,
	`{"includeCommunity":"true"}`,
	`{"addresses":[{"address":"a","chain":"b"}]`,
	`[]`,
	`null`,
	``,
	`{"addresses":[{"address":"` + strings.Repeat("a", 300) + `","chain":"b"}]}`,
}

// bindBoth decodes body with bindScreenRequest and with bindJSON, each
// from a request of its own, the body limited to limit bytes.
func bindBoth(t testing.TB, body string, limit int64) (fast, slow screenRequest, fastErr, slowErr error) {
	t.Helper()
	bind := func(f func(*gin.Context, *screenRequest) error) (screenRequest, error) {
		w := httptest.NewRecorder()
		c, _ := gin.CreateTestContext(w)
		r := httptest.NewRequest(http.MethodPost, "/v1/compliance/screen", strings.NewReader(body))
		r.ContentLength = -1 // as when chunked: only the reader's limit applies
		r.Header.Set("Content-Type", "application/json")
		r.Body = http.MaxBytesReader(w, r.Body, limit)
		c.Request = r
		var req screenRequest
		err := f(c, &req)
		return req, err
	}
	fast, fastErr = bind(bindScreenRequest)
	slow, slowErr = bind(func(c *gin.Context, req *screenRequest) error { return bindJSON(c, req, false) })
	return
}

// TestBindScreenRequestAsBindJSON checks that the screening request reads
// as bindJSON reads it, errors included, whichever path decodes it.
func TestBindScreenRequestAsBindJSON(t *testing.T) {
	fastPath := 0
	for _, body := range screenBodies {
		for _, limit := range []int64{1 << 20, 40} {
			fast, slow, fastErr, slowErr := bindBoth(t, body, limit)
			if !reflect.DeepEqual(fast, slow) || fmt.Sprint(fastErr) != fmt.Sprint(slowErr) {
				t.Fatalf("body %q, limit %d: %+v (%v), bindJSON %+v (%v)", body, limit, fast, fastErr, slow, slowErr)
			}
		}
		if parseScreenRequest(body, &screenRequest{}) {
			fastPath++
		}
	}
	if fastPath != 4 {
		t.Fatalf("%d bodies read by parseScreenRequest, want the 4 of the common form", fastPath)
	}
}

// FuzzParseScreenRequest checks that whatever parseScreenRequest accepts
// decodes to the same request with encoding/json, and that every body
// binds as with bindJSON.
func FuzzParseScreenRequest(f *testing.F) {
	for _, body := range screenBodies {
		f.Add(body)
	}
	f.Fuzz(func(t *testing.T, body string) {
		fast, slow, fastErr, slowErr := bindBoth(t, body, 1<<20)
		if !reflect.DeepEqual(fast, slow) || fmt.Sprint(fastErr) != fmt.Sprint(slowErr) {
			t.Fatalf("body %q: %+v (%v), bindJSON %+v (%v)", body, fast, fastErr, slow, slowErr)
		}
	})
}

// TestWriteScreenedAsBefore checks the screening answer against the body
// as it was assembled before writeScreened: results, then the other
// members as json.Marshal of a map writes them.
func TestWriteScreenedAsBefore(t *testing.T) {
	proof, err := json.Marshal(compliance.ProofDoc{ScreeningID: "id", DataSources: []string{"gov_sdn", "a<b>&\u2028"},
		DataSnapshots: map[string]screening.Snapshot{"gov_sdn": {BlobName: "x&y", FetchedAt: time.Unix(1, 0).UTC()}}})
	if err != nil {
		t.Fatal(err)
	}
	out := &compliance.Screened{Results: json.RawMessage(`[{"address":"<a>"}]`), Proof: proof, DataSources: []string{"gov_sdn", "a<b>&\u2028"},
		Usage: compliance.Usage{FreeLimit: 100, FreeRemaining: 3, FreeReset: time.Date(2026, 5, 1, 1, 0, 0, 0, time.UTC), Billable: 97, Charged: 97}}
	for range 2 { // the second from a buffer used before
		w := httptest.NewRecorder()
		c, _ := gin.CreateTestContext(w)
		if err := writeScreened(c, out); err != nil {
			t.Fatal(err)
		}
		rest, err := json.Marshal(gin.H{"dataSources": out.DataSources, "proof": out.Proof, "rateLimit": freeUsage(c, out.Usage)})
		if err != nil {
			t.Fatal(err)
		}
		want := append(append(append([]byte(`{"results":`), out.Results...), ','), rest[1:]...)
		want = append(want, '\n')
		if got := w.Body.Bytes(); !bytes.Equal(got, want) {
			t.Fatalf("body\n%s\nwant\n%s", got, want)
		}
		if ct := w.Header().Get("Content-Type"); ct != jsonContentType {
			t.Fatalf("Content-Type %q", ct)
		}
	}
}
