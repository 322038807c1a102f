package ingest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

// TestSourceLimits: a source fetched over HTTP that is larger than
// MaxSourceBytes, or an XML source with a token (text or tag) longer than
// MaxXMLToken, fails with an error that says which limit, in the run's
// failures and the source's state, and never reaches memory whole.
func TestSourceLimits(t *testing.T) {
	list := "0x8589427373d6d84e98730d7795d8f6f8731fda16\n"
	xmlDoc, err := os.ReadFile("testdata/ofac_xml/sdn_advanced_excerpt.xml")
	if err != nil {
		t.Fatal(err)
	}
	huge := strings.Replace(string(xmlDoc), "<Year>2025</Year>", "<Year>2025"+strings.Repeat(" ", 64<<10)+"</Year>", 1)
	if huge == string(xmlDoc) {
		t.Fatal("the excerpt has no <Year> to pad")
	}
	bodies := map[string]string{"/big.txt": strings.Repeat(list, 100), "/small.txt": list, "/huge-token.xml": huge, "/ok.xml": string(xmlDoc)}
	var chunked bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if chunked {
			w.(http.Flusher).Flush() // no Content-Length: the cap must hold while reading
		}
		_, _ = w.Write([]byte(bodies[r.URL.Path]))
	}))
	defer srv.Close()
	for _, c := range []struct {
		name, src, path string
		chunked         bool
		want            string
	}{
		{"TooLarge", "list:ETH", "/big.txt", false, "larger than the limit of 1000 bytes"},
		{"TooLargeChunked", "list:ETH", "/big.txt", true, "larger than the limit of 1000 bytes"},
		{"XMLTokenTooLarge", SourceGovSDN, "/huge-token.xml", false, "XML token longer than 32768 bytes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			chunked = c.chunked
			p, _ := newPipeline(t, Source{Name: c.src, Location: srv.URL + c.path})
			p.MaxSourceBytes, p.MaxXMLToken = 1000, 32<<10
			if c.src == SourceGovSDN {
				p.MaxSourceBytes = 0
			}
			res, err := p.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if msg := res.Failures[c.src]; !strings.Contains(msg, c.want) {
				t.Fatalf("failure %q, want it to say %q", msg, c.want)
			}
			if st := p.States()[c.src]; !strings.Contains(st.LastError, c.want) {
				t.Fatalf("state error %q, want %q", st.LastError, c.want)
			}
		})
	}
	t.Run("WithinLimits", func(t *testing.T) {
		chunked = false
		p, _ := newPipeline(t, Source{Name: "list:ETH", Location: srv.URL + "/small.txt"}, Source{Name: SourceGovSDN, Location: srv.URL + "/ok.xml"})
		p.MaxSourceBytes, p.MaxXMLToken = 1<<20, 32<<10
		res, err := p.Run(context.Background())
		if err != nil || len(res.Failures) != 0 {
			t.Fatalf("Run = %+v, %v", res, err)
		}
	})
}
