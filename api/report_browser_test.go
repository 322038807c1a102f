package api_test

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/internal/browsertest"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// TestBrowserProofReportVerifies: the report of a real screening, opened
// in Chromium, shows every address and verifies the document: the
// results hash, the membership and exclusion proofs, both data snapshots
// (fetched and hashed in the page) and the signature pass, the chain is
// left unchecked (no public RPC URL), and nothing breaks the page's
// Content-Security-Policy. It is usable with the keyboard and prints.
func TestBrowserProofReportVerifies(t *testing.T) {
	ts := reportServer(t, "")
	path := screenForReport(t, ts)
	ctx := browsertest.New(t)
	console := browsertest.Console(t, ctx)
	verdict, checks := browsertest.Report(t, ctx, ts.URL+path)
	for _, name := range []string{"resultsHash", "statuses", "merkleProofs", "exclusionProofs", "snapshot:list:ETH", "snapshot:list:XBT", "signature"} {
		if c := checks[name]; c.Verdict != "pass" || c.Word != "Passed" {
			t.Errorf("check %s: %+v, want passed", name, c)
		}
	}
	if c := checks["chain"]; c.Verdict != "skip" || !strings.Contains(c.Detail, "--public-evm-rpc-url") {
		t.Errorf("chain check without an RPC URL: %+v", c)
	}
	if verdict != "pass" || len(checks) != 8 {
		t.Errorf("verdict %q with %d checks: %+v", verdict, len(checks), checks)
	}
	text := browsertest.Run(t, ctx, chromedp.Text(chromedp.CSS("#verdict")))
	if !strings.HasPrefix(text, "Verified: all 7 checks passed") {
		t.Errorf("verdict text %q", text)
	}
	rows := browsertest.Run(t, ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('#results tbody tr')].map((tr) => tr.innerText)`))
	if len(rows) != len(reportAddresses) || !strings.Contains(rows[0], "sanctioned") || !strings.Contains(rows[0], "list:ETH (sanctions)") ||
		!strings.Contains(rows[1], "clear") || !strings.Contains(rows[2], "bitcoin") || !strings.Contains(rows[3], "invalid_address") {
		t.Errorf("the address rows: %q", rows)
	}
	sources := browsertest.Run(t, ctx, chromedp.Text(chromedp.CSS("#sources tbody")))
	if !strings.Contains(sources, "list:ETH") || !strings.Contains(sources, "list:XBT") {
		t.Errorf("the sources: %q", sources)
	}
	if errs := console.Errors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
	browsertest.SaveScreenshot(t, ctx, "../docs/proof-report.png")

	// The keyboard: the first Tab reaches the skip link, Enter moves the
	// focus to the checks.
	browsertest.Do(t, ctx, chromedp.KeyEvent("\t"))
	if cls := browsertest.Run(t, ctx, chromedp.Evaluate[string](`document.activeElement.className`)); cls != "skip-link" {
		t.Errorf("the first Tab focuses %q, want the skip link", cls)
	}
	browsertest.Do(t, ctx, chromedp.KeyEvent("\r"))
	if id := browsertest.Run(t, ctx, chromedp.Evaluate[string](`document.activeElement.id`)); id != "checks-h" {
		t.Errorf("the skip link leads to %q, want checks-h", id)
	}
	// Printed: the verdicts stay, the skip link and the raw JSON go.
	browsertest.Do(t, ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"})
		return err
	}))
	shown := browsertest.Run(t, ctx, chromedp.Evaluate[[]string](`['.skip-link', 'details', '#checks', '#verdict'].map((s) => getComputedStyle(document.querySelector(s)).display)`))
	if shown[0] != "none" || shown[1] != "none" || shown[2] == "none" || shown[3] == "none" {
		t.Errorf("print styles: display of skip, details, checks, verdict = %q", shown)
	}
	if pdf := browsertest.Run(t, ctx, chromedp.PrintToPDF()); !bytes.HasPrefix(pdf, []byte("%PDF")) {
		t.Error("printing to PDF gave no PDF")
	}
}

// indexAfter is the index in b of the first s after the first mark (the
// test fails when there is none).
func indexAfter(t *testing.T, b []byte, mark, s string) int {
	t.Helper()
	if i := bytes.Index(b, []byte(mark)); i >= 0 {
		if j := bytes.Index(b[i:], []byte(s)); j >= 0 {
			return i + j
		}
	}
	t.Fatalf("no %q after %q in the document", s, mark)
	return 0
}

// replaceAfter replaces the first old after the first mark in b.
func replaceAfter(t *testing.T, b []byte, mark, old, new string) []byte {
	t.Helper()
	i := indexAfter(t, b, mark, old)
	return append(append(append([]byte{}, b[:i]...), new...), b[i+len(old):]...)
}

// TestBrowserProofReportShowsTampering: a document altered on its way to
// the browser (by a proxy) fails verification, and the page names the
// check that caught the edit while the others keep their verdicts.
func TestBrowserProofReportShowsTampering(t *testing.T) {
	ts := reportServer(t, "")
	path := screenForReport(t, ts)
	_, doc := get(t, ts.URL, path, "")
	snapshotSum := string(doc[bytes.Index(doc, []byte(`"sha256":"`))+10:][:64])
	ctx := browsertest.New(t)
	for _, tc := range []struct {
		name       string
		edit       func([]byte) []byte
		fail, pass []string
		screenshot string
	}{
		{"a sanctioned result reported clear", func(b []byte) []byte {
			return replaceAfter(t, b, `"results":`, `"status":"sanctioned"`, `"status":"clear"`)
		}, []string{"resultsHash"}, []string{"signature", "snapshot:list:ETH", "merkleProofs"}, "../docs/proof-report-tampered.png"},
		{"a membership proof hash changed", func(b []byte) []byte {
			return flipHexAfter(t, b, `"merkleProofs":`, `"proof":["0x`)
		}, []string{"merkleProofs"}, []string{"resultsHash", "signature", "exclusionProofs"}, ""},
		{"a data snapshot's digest changed", func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"sha256":"`+snapshotSum), []byte(`"sha256":"`+strings.Repeat("0", 64)), 1)
		}, []string{"signature", "snapshot:list:ETH"}, []string{"resultsHash", "merkleProofs", "exclusionProofs", "snapshot:list:XBT"}, ""},
		{"the signature changed", func(b []byte) []byte {
			return replaceAfter(t, b, `"signature":`, `"value":"`, `"value":"AAAA`)
		}, []string{"signature"}, []string{"resultsHash", "merkleProofs", "exclusionProofs", "snapshot:list:ETH", "snapshot:list:XBT"}, ""},
		{"an exclusion root changed", func(b []byte) []byte {
			return flipHexAfter(t, b, `"exclusionRoot":`, `"0x`)
		}, []string{"exclusionProofs", "signature"}, []string{"resultsHash", "merkleProofs"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := browsertest.TamperProxy(t, ts.URL, browsertest.IsProofJSON, tc.edit)
			verdict, checks := browsertest.Report(t, ctx, base+path)
			if verdict != "fail" {
				t.Errorf("verdict %q for an altered document: %+v", verdict, checks)
			}
			for _, name := range tc.fail {
				if c := checks[name]; c.Verdict != "fail" || c.Word != "Failed" || c.Detail == "" {
					t.Errorf("check %s: %+v, want failed", name, c)
				}
			}
			for _, name := range tc.pass {
				if c := checks[name]; c.Verdict != "pass" {
					t.Errorf("check %s: %+v, want passed", name, c)
				}
			}
			text := browsertest.Run(t, ctx, chromedp.Text(chromedp.CSS("#verdict")))
			if !strings.HasPrefix(text, "Not verified:") {
				t.Errorf("verdict text %q", text)
			}
			if tc.screenshot != "" {
				browsertest.SaveScreenshot(t, ctx, tc.screenshot)
			}
		})
	}
}

// flipHexAfter changes the hex digit that follows the first prefix after
// the first mark in b, keeping the document well formed.
func flipHexAfter(t *testing.T, b []byte, mark, prefix string) []byte {
	t.Helper()
	k := indexAfter(t, b, mark, prefix) + len(prefix)
	out := append([]byte{}, b...)
	out[k] = map[bool]byte{true: '1', false: '0'}[out[k] == '0']
	return out
}

// TestBrowserProofReportShowsPrograms: the report of a screening against
// the OFAC SDN list (the SDN_ADVANCED.XML excerpt of ingest/testdata)
// shows, for the Lazarus Group's address, its entity and its sanctions
// program, and a dash for an address without a match; the document still
// verifies in the page.
func TestBrowserProofReportShowsPrograms(t *testing.T) {
	ts := signingServer(t, "", apitest.Lists(t, "gov_sdn=../ingest/testdata/ofac_xml/sdn_advanced_mini.xml"))
	a := ts.Register(t, "")
	r := ts.Do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": []map[string]any{
		{"address": "0x098B716B8Aaf21512996dC57EB0615e2383E2f96", "chain": "ethereum"},
		{"address": "0x0000000000000000000000000000000000000001", "chain": "ethereum"}}}).Must(t, 200)
	path := "/v1/compliance/proofs/" + r.JSON["proof"].(map[string]any)["screeningId"].(string)
	ctx := browsertest.New(t)
	console := browsertest.Console(t, ctx)
	verdict, checks := browsertest.Report(t, ctx, ts.URL+path)
	if verdict != "pass" || checks["resultsHash"].Verdict != "pass" || checks["snapshot:gov_sdn"].Verdict != "pass" {
		t.Errorf("verdict %q: %+v", verdict, checks)
	}
	heads := browsertest.Run(t, ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('#results thead th')].map((th) => th.textContent)`))
	rows := browsertest.Run(t, ctx, chromedp.Evaluate[[][]string](`[...document.querySelectorAll('#results tbody tr')].map((tr) => [...tr.cells].map((td) => td.innerText))`))
	col := slices.Index(heads, "Program")
	entity := slices.Index(heads, "Matched entity")
	if col < 0 || entity < 0 || len(rows) != 2 || len(rows[0]) != len(heads) {
		t.Fatalf("headers %q, rows %q", heads, rows)
	}
	if rows[0][entity] != "Lazarus Group" || rows[0][col] != "DPRK3" || !strings.Contains(rows[0][col+1], "gov_sdn (sanctions)") {
		t.Errorf("the Lazarus Group's row: %q", rows[0])
	}
	if rows[1][entity] != "—" || rows[1][col] != "—" || !strings.Contains(strings.Join(rows[1], " "), "clear") {
		t.Errorf("the clear address's row: %q", rows[1])
	}
	browsertest.SaveScreenshot(t, ctx, "../docs/proof-report-sdn.png")
	if errs := console.Errors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}
