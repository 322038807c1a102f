package api_test

import (
	"bytes"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/compliance"
	"github.com/cairn-dev/cairn/internal/wiring"
	"github.com/cairn-dev/cairn/web"
)

// reportServer is a test server serving the sanctions lists of testdata
// and signing its proof documents; rpc is its --public-evm-rpc-url.
func reportServer(t *testing.T, rpc string) *apitest.Server {
	t.Helper()
	return signingServer(t, rpc, apitest.SanctionsLists(t))
}

// signingServer is a test server ingesting the sources of lists and
// signing its proof documents; rpc is its --public-evm-rpc-url.
func signingServer(t *testing.T, rpc string, lists func(*wiring.Parts)) *apitest.Server {
	t.Helper()
	signer, err := compliance.NewSigner(bytes.Repeat([]byte{5}, 32), nil)
	if err != nil {
		t.Fatal(err)
	}
	return apitest.NewServer(t, lists, func(p *wiring.Parts) {
		p.Signer, p.PublicEVMRPCURL = signer, rpc
	})
}

// reportAddresses are screened for the report: a sanctioned address, a
// clear one and an invalid one.
var reportAddresses = []map[string]any{
	{"address": apitest.Tornado, "chain": "ethereum"},
	{"address": "0x0000000000000000000000000000000000000001", "chain": "ethereum"},
	{"address": "12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h", "chain": "bitcoin"},
	{"address": "bogus", "chain": "bitcoin"},
}

// screenForReport screens reportAddresses and returns the proof's path.
func screenForReport(t *testing.T, ts *apitest.Server) string {
	t.Helper()
	a := ts.Register(t, "")
	r := ts.Do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": reportAddresses}).Must(t, 200)
	return "/v1/compliance/proofs/" + r.JSON["proof"].(map[string]any)["screeningId"].(string)
}

// get sends GET path with the Accept header (none when empty), checking
// the answer against the OpenAPI document, and returns it with its body.
func get(t *testing.T, base, path, accept string) (*apitest.Response, []byte) {
	t.Helper()
	var hdr []string
	if accept != "" {
		hdr = []string{"Accept", accept}
	}
	r := (&apitest.Client{URL: base}).Do(t, "GET", path, "", nil, hdr...)
	return r, r.Body
}

const browserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"

// TestProofReportNegotiation: a browser's Accept gets the report page,
// under a strict Content-Security-Policy, with no inline script or style
// and every asset it names served; every other Accept gets the JSON
// document, byte for byte the same.
func TestProofReportNegotiation(t *testing.T) {
	ts := reportServer(t, "")
	path := screenForReport(t, ts)
	_, want := get(t, ts.URL, path, "")
	if !bytes.HasPrefix(want, []byte(`{"screeningId":`)) {
		t.Fatalf("the JSON document: %.200s", want)
	}
	for _, accept := range []string{"*/*", "application/json", "application/json, text/html;q=0.5", "text/plain", "text/html;q=0", "application/*"} {
		resp, b := get(t, ts.URL, path, accept)
		if resp.Status != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") || !bytes.Equal(b, want) {
			t.Errorf("Accept %q: %d %s, %d bytes: not the JSON document", accept, resp.Status, resp.Header.Get("Content-Type"), len(b))
		}
		if resp.Header.Get("Vary") != "Accept" {
			t.Errorf("Accept %q: Vary %q", accept, resp.Header.Get("Vary"))
		}
	}
	for _, accept := range []string{browserAccept, "text/html", "text/html, application/json;q=0.9"} {
		resp, page := get(t, ts.URL, path, accept)
		if resp.Status != 200 || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" {
			t.Fatalf("Accept %q: %d %s", accept, resp.Status, resp.Header.Get("Content-Type"))
		}
		checkPage(t, ts.URL, resp, page, "")
		if !bytes.HasPrefix(page, []byte("<!doctype html>\n<html lang=\"en\">")) || !bytes.Contains(page, []byte(`data-doc="`+path+`"`)) {
			t.Errorf("the page does not name its document %s", path)
		}
	}
}

// TestProofReportNotFound: an unknown proof asked for by a browser is a
// 404 HTML page naming the id, under the report's Content-Security-Policy
// and with no script; for any other Accept it is the not_found problem.
func TestProofReportNotFound(t *testing.T) {
	ts := reportServer(t, "")
	const unknown = "/v1/compliance/proofs/00000000-0000-4000-8000-000000000000"
	for _, accept := range []string{browserAccept, "text/html"} {
		resp, page := get(t, ts.URL, unknown, accept)
		if resp.Status != 404 || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" || resp.Header.Get("Vary") != "Accept" {
			t.Fatalf("Accept %q: %d %s, Vary %q", accept, resp.Status, resp.Header.Get("Content-Type"), resp.Header.Get("Vary"))
		}
		checkPage(t, ts.URL, resp, page, "")
		if !bytes.HasPrefix(page, []byte("<!doctype html>\n<html lang=\"en\">")) || !bytes.Contains(page, []byte("No such screening proof")) || !bytes.Contains(page, []byte("00000000-0000-4000-8000-000000000000")) ||
			bytes.Contains(page, []byte("<script")) {
			t.Errorf("the not-found page: %s", page)
		}
	}
	// An id in markup is escaped, not rendered.
	resp, page := get(t, ts.URL, "/v1/compliance/proofs/%3Cb%3Ex", "text/html")
	if resp.Status != 404 || bytes.Contains(page, []byte("<b>x")) || !bytes.Contains(page, []byte("&lt;b&gt;x")) {
		t.Errorf("an id with markup: %d %s", resp.Status, page)
	}
	for _, accept := range []string{"", "application/json", "*/*", "text/html;q=0"} {
		(&apitest.Client{URL: ts.URL}).Do(t, "GET", unknown, "", nil, "Accept", accept).Problem(t, 404, "not_found")
	}
}

var (
	assetRef    = regexp.MustCompile(`(?:src|href)="(/assets/[^"]+)"`)
	inlineParts = regexp.MustCompile(`(?i)<script(?:\s+type="module")?\s*>|<style|\sstyle=|\son[a-z]+=|javascript:`)
)

// checkPage checks a page's security headers (connect-src allowing only
// its origin and rpc), that it holds no inline script, style or handler,
// and that every asset it names is served under the same policy.
func checkPage(t *testing.T, base string, resp *apitest.Response, page []byte, rpc string) {
	t.Helper()
	connect := "'self'"
	if rpc != "" {
		connect += " " + rpc
	}
	csp := "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src " + connect +
		"; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
	if got := resp.Header.Get("Content-Security-Policy"); got != csp {
		t.Errorf("Content-Security-Policy %q, want %q", got, csp)
	}
	if resp.Header.Get("X-Content-Type-Options") != "nosniff" || resp.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("headers %v", resp.Header)
	}
	if m := inlineParts.FindAll(page, -1); len(m) > 0 {
		t.Errorf("inline script or style in the page: %q", m)
	}
	refs := assetRef.FindAllSubmatch(page, -1)
	if len(refs) < 2 {
		t.Fatalf("the page names %d assets", len(refs))
	}
	for _, ref := range refs {
		r, b := get(t, base, string(ref[1]), "")
		if r.Status != 200 || len(b) == 0 || r.Header.Get("Content-Security-Policy") != csp {
			t.Errorf("%s: %d, %d bytes, CSP %q", ref[1], r.Status, len(b), r.Header.Get("Content-Security-Policy"))
		}
	}
}

// TestAssets: the pages' files are served from the binary with their
// types and ETags; the verifier is the embedded bundle; anything else is
// a 404 problem.
func TestAssets(t *testing.T) {
	ts := apitest.NewServer(t)
	for name, ctype := range map[string]string{"report.js": "text/javascript; charset=utf-8", "report.css": "text/css; charset=utf-8",
		"cairn-verify.js": "text/javascript; charset=utf-8"} {
		resp, b := get(t, ts.URL, "/assets/"+name, "")
		if resp.Status != 200 || resp.Header.Get("Content-Type") != ctype || resp.Header.Get("ETag") == "" {
			t.Errorf("%s: %d %q etag %q", name, resp.Status, resp.Header.Get("Content-Type"), resp.Header.Get("ETag"))
		}
		want := web.VerifierJS
		if name != "cairn-verify.js" {
			want, _ = web.Assets.ReadFile("assets/" + name)
		}
		if !bytes.Equal(b, want) {
			t.Errorf("%s: not the embedded file", name)
		}
		req, _ := http.NewRequest(http.MethodGet, ts.URL+"/assets/"+name, nil)
		req.Header.Set("If-None-Match", resp.Header.Get("ETag"))
		ts.Send(t, req).Must(t, 304)
	}
	for _, p := range []string{"/assets/nope.js", "/assets/..%2Freport.html", "/assets/%2e%2e"} {
		ts.Do(t, "GET", p, "", nil).Problem(t, 404, "not_found")
	}
}

// TestProofReportPublicRPC: with --public-evm-rpc-url the page names the
// endpoint to its script and its policy allows connecting to it.
func TestProofReportPublicRPC(t *testing.T) {
	const rpc = "https://rpc.example/v1"
	ts := reportServer(t, rpc)
	path := screenForReport(t, ts)
	resp, page := get(t, ts.URL, path, browserAccept)
	checkPage(t, ts.URL, resp, page, rpc)
	if !bytes.Contains(page, []byte(`data-rpc="`+rpc+`"`)) {
		t.Error("the page does not name the RPC URL")
	}
}
