package web_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/internal/browsertest"
	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
)

// screeningServer is a test server screening against the sanctions
// lists, with an agent registered under name whose account an
// administrator granted credits.
func screeningServer(t *testing.T, name string, credits int) (*apitest.Server, apitest.Agent) {
	t.Helper()
	ts := apitest.NewServer(t, apitest.SanctionsLists(t))
	a := ts.Register(t, name)
	ts.Do(t, "POST", "/v1/admin/credits", apitest.AdminToken, map[string]any{"developerId": a.DeveloperID, "amount": credits, "reason": "test"}).Must(t, 200)
	return ts, a
}

// signIn opens the console of ts and signs in with cred typed on the
// keyboard (Enter submits), then waits for the navigation.
func signIn(t *testing.T, ctx context.Context, ts *apitest.Server, cred string) {
	t.Helper()
	browsertest.Do(t, ctx,
		chromedp.Navigate(ts.URL+"/console"),
		chromedp.WaitVisible(chromedp.CSS("#credential")),
		chromedp.Focus(chromedp.CSS("#credential")),
		chromedp.KeyEvent(cred+"\r"),
		chromedp.WaitVisible(chromedp.CSS("#nav")),
	)
}

// js evaluates an expression in the page and returns its value.
func js[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	return browsertest.Run(t, ctx, chromedp.Evaluate[T](expr))
}

// waitJS waits until the expression is true in the page, or the page
// shows an error, which fails t with its text.
func waitJS(t *testing.T, ctx context.Context, expr string) {
	t.Helper()
	shown := `[...document.querySelectorAll('.error')].filter(e => !e.hidden && e.textContent).map(e => e.textContent).join(' / ')`
	browsertest.Do(t, ctx, chromedp.Poll[chromedp.Void](`(`+expr+`) || `+shown, chromedp.WithPollingTimeout(0)))
	if !js[bool](t, ctx, `!!(`+expr+`)`) {
		t.Fatalf("waiting for %s, the page shows: %s", expr, js[string](t, ctx, shown))
	}
}

// unlabelled returns the ids (or tags) of the form controls of the page
// that no label names.
func unlabelled(t *testing.T, ctx context.Context) []string {
	t.Helper()
	if n := js[int](t, ctx, `document.querySelectorAll('input, select, textarea, progress').length`); n < 15 {
		t.Fatalf("only %d form controls in the page", n)
	}
	return js[[]string](t, ctx, `[...document.querySelectorAll('input, select, textarea, progress')]
		.filter(e => !e.labels || e.labels.length === 0).map(e => e.id || e.tagName)`)
}

// choose selects a value of a <select> as a person would, firing change.
func choose(t *testing.T, ctx context.Context, id, value string) {
	t.Helper()
	js[bool](t, ctx, fmt.Sprintf(`(() => { const s = document.getElementById(%q); s.value = %q;
		s.dispatchEvent(new Event('change', {bubbles: true})); return true; })()`, id, value))
}

// download clicks the button sel and returns the file the page handed the
// browser.
func download(t *testing.T, ctx context.Context, sel string) []byte {
	t.Helper()
	dir := t.TempDir()
	progress := chromedp.Events(ctx, browser.DownloadProgress)
	browsertest.Do(t, ctx, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		on := true
		_, err := chromedp.Call(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
			Behavior: browser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: dir, EventsEnabled: &on})
		return err
	}), chromedp.Click(chromedp.CSS(sel)))
	for ev, err := range progress {
		if err != nil {
			t.Fatalf("download of %s: %v", sel, err)
		}
		if ev.State == browser.DownloadProgressStateCanceled {
			t.Fatalf("download of %s canceled", sel)
		}
		if ev.State == browser.DownloadProgressStateCompleted {
			b, err := os.ReadFile(filepath.Join(dir, ev.GUID))
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
	}
	t.Fatalf("no download of %s", sel)
	return nil
}

// screenInput is 1,000 screening items: 100 listed ETH addresses (every
// tenth on bsc, the same family), 100 listed BTC addresses, 780 addresses
// no list holds on ethereum and polygon, and 20 that are no address.
func screenInput(t *testing.T) []map[string]string {
	t.Helper()
	eth, xbt := apitest.ListFiles(t)
	lines := func(path string, n int) []string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for sc := bufio.NewScanner(bytes.NewReader(b)); sc.Scan() && len(out) < n; {
			if l := strings.TrimSpace(sc.Text()); l != "" {
				out = append(out, l)
			}
		}
		return out
	}
	var items []map[string]string
	for i, a := range lines(eth, 100) {
		items = append(items, map[string]string{"address": a, "chain": map[bool]string{true: "bsc", false: "ethereum"}[i%10 == 0]})
	}
	for _, a := range lines(xbt, 100) {
		items = append(items, map[string]string{"address": a, "chain": "bitcoin"})
	}
	for i := range 780 {
		items = append(items, map[string]string{"address": fmt.Sprintf("0x%040x", 0xc0ffee000+i), "chain": []string{"ethereum", "polygon"}[i%2]})
	}
	for i := range 20 {
		items = append(items, map[string]string{"address": fmt.Sprintf("not-an-address-%d", i), "chain": "ethereum"})
	}
	if len(items) != 1000 {
		t.Fatalf("%d items", len(items))
	}
	return items
}

// apiAnswers screens items through the API in requests of 100 and
// returns the results, in order.
func apiAnswers(t *testing.T, ts *apitest.Server, key string, items []map[string]string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for i := 0; i < len(items); i += 100 {
		r := ts.Do(t, "POST", "/v1/compliance/screen", key, map[string]any{"addresses": items[i:min(i+100, len(items))]}).Must(t, 200)
		for _, x := range r.JSON["results"].([]any) {
			out = append(out, x.(map[string]any))
		}
	}
	return out
}

func entities(matches []any) string {
	var names []string
	for _, m := range matches {
		mm := m.(map[string]any)
		name, _ := mm["entityName"].(string)
		if name == "" {
			name, _ = mm["entityId"].(string)
		}
		if name != "" {
			names = append(names, name)
		}
	}
	return strings.Join(names, "; ")
}

// TestConsoleScreensACSV: a developer's agent key signs in by keyboard;
// a CSV of 1,000 addresses uploaded shows its cost before it starts
// (which is what it is charged), is screened in 10 requests with a
// progress bar, shows in a table of at most 50 rows that filters by
// status and chain, and downloads as CSV and JSON whose every row is the
// API's answer for the same address with a proof link to a stored proof
// holding that answer. No script error and no policy violation.
func TestConsoleScreensACSV(t *testing.T) {
	ts, a := screeningServer(t, "console", 2900)
	items := screenInput(t)
	rows := [][]string{{"address", "chain"}}
	for _, it := range items {
		rows = append(rows, []string{it["address"], it["chain"]})
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.WriteAll(rows); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "deposits.csv")
	if err := os.WriteFile(file, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}

	ctx := browsertest.New(t)
	console := browsertest.Console(t, ctx)
	signIn(t, ctx, ts, a.Key)
	if got := js[string](t, ctx, `sessionStorage.getItem('cairn.console.credential')`); got != a.Key {
		t.Fatalf("session storage holds %q", got)
	}
	browsertest.Do(t, ctx, chromedp.SetUploadFiles(chromedp.CSS("#screen-file"), []string{file}))
	waitJS(t, ctx, `document.getElementById("screen-estimate").textContent.includes("credits")`)
	est := js[string](t, ctx, `document.getElementById('screen-estimate').textContent`)
	if !strings.Contains(est, "1,000 addresses in 10 requests: at most 1,000 credits") || !strings.Contains(est, "990") {
		t.Fatalf("estimate %q", est)
	}
	before := ts.Balance(t, a.Key)
	browsertest.Do(t, ctx, chromedp.Click(chromedp.CSS("#screen-start")))
	waitJS(t, ctx, `document.getElementById('screen-progress').value === 1000 && !document.getElementById('screen-start').disabled`)
	if spent := before - ts.Balance(t, a.Key); spent != 990 {
		t.Fatalf("the screening cost %d credits, the page said 990", spent)
	}
	if e := js[string](t, ctx, `document.getElementById('screen-error').textContent`); e != "" {
		t.Fatalf("error shown: %s", e)
	}
	if loc := js[string](t, ctx, `location.href`); strings.Contains(loc, a.Key) {
		t.Fatal("the key is in the URL")
	}

	want := apiAnswers(t, ts, a.Key, items)
	count := map[string]int{}
	for _, r := range want {
		count[r["status"].(string)]++
	}
	if count["sanctioned"] != 200 || count["clear"] != 780 || count["invalid_address"] != 20 {
		t.Fatalf("the API's answers: %v", count)
	}
	tableRows := func() int { return js[int](t, ctx, `document.querySelectorAll('#results-table tbody tr').length`) }
	caption := func() string { return js[string](t, ctx, `document.getElementById('results-caption').textContent`) }
	if n := tableRows(); n != 50 || !strings.Contains(caption(), "of 1,000") {
		t.Fatalf("%d rows in the table for 1,000 results (%q)", n, caption())
	}
	browsertest.SaveScreenshot(t, ctx, "../docs/console-screening.png")
	if u := unlabelled(t, ctx); len(u) > 0 {
		t.Fatalf("controls without a label: %q", u)
	}
	choose(t, ctx, "filter-status", "sanctioned")
	if n := js[int](t, ctx, `document.querySelectorAll('#results-table tbody tr[data-status="sanctioned"]').length`); n != 50 || tableRows() != 50 ||
		!strings.Contains(caption(), "of 200") {
		t.Fatalf("sanctioned filter: %d rows, %q", n, caption())
	}
	choose(t, ctx, "filter-chain", "bitcoin")
	if !strings.Contains(caption(), "of 100") || js[int](t, ctx, `[...document.querySelectorAll('#results-table tbody tr td:nth-child(3)')].filter(td => td.textContent === 'bitcoin').length`) != 50 {
		t.Fatalf("sanctioned on bitcoin: %q", caption())
	}
	choose(t, ctx, "filter-status", "")
	choose(t, ctx, "filter-chain", "")
	browsertest.Do(t, ctx, chromedp.Click(chromedp.CSS("#page-next")))
	if first := js[string](t, ctx, `document.querySelector('#results-table tbody tr td').textContent`); first != "51" || tableRows() != 50 {
		t.Fatalf("second page starts at row %s", first)
	}

	checkCSV(t, ts, download(t, ctx, "#download-csv"), want)
	checkJSON(t, download(t, ctx, "#download-json"), want)
	console.NoErrors(t)
}

// checkCSV compares the downloaded CSV with the API's answers and checks
// each row's proof link against the stored proof.
func checkCSV(t *testing.T, ts *apitest.Server, b []byte, want []map[string]any) {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	header := "address,chain,status,family,canonicalAddress,entities,sources,listVersion,screeningId,proofUrl"
	if len(recs) != len(want)+1 || strings.Join(recs[0], ",") != header {
		t.Fatalf("CSV of %d records, header %q", len(recs), recs[0])
	}
	proofs := map[string]map[string]any{}
	for i, rec := range recs[1:] {
		w := want[i]
		got := []string{rec[0], rec[1], rec[2], rec[3], rec[4], rec[5]}
		exp := []string{w["address"].(string), w["chain"].(string), w["status"].(string), w["family"].(string), w["canonicalAddress"].(string),
			entities(w["matches"].([]any))}
		if fmt.Sprint(got) != fmt.Sprint(exp) {
			t.Fatalf("CSV row %d: %q, the API: %q", i+1, got, exp)
		}
		id := rec[8]
		if rec[9] != "http://cairn.test/v1/compliance/proofs/"+id {
			t.Fatalf("row %d: proof link %q for screening %q", i+1, rec[9], id)
		}
		if proofs[id] == nil {
			proofs[id] = ts.Do(t, "GET", "/v1/compliance/proofs/"+id, "", nil).Must(t, 200).JSON
		}
		res := proofs[id]["results"].([]any)[i%100].(map[string]any)
		if res["address"] != rec[0] || res["status"] != rec[2] || fmt.Sprint(proofs[id]["listVersion"]) != rec[7] {
			t.Fatalf("row %d: the proof %s holds %v", i+1, id, res)
		}
	}
	if len(proofs) != 10 {
		t.Fatalf("%d proofs for 10 requests", len(proofs))
	}
}

// checkJSON compares the downloaded JSON with the API's answers.
func checkJSON(t *testing.T, b []byte, want []map[string]any) {
	t.Helper()
	var got []map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("JSON of %d rows", len(got))
	}
	for i, g := range got {
		for _, k := range []string{"address", "chain", "status", "family", "canonicalAddress", "checksum", "matches"} {
			if fmt.Sprint(g[k]) != fmt.Sprint(want[i][k]) {
				t.Fatalf("JSON row %d %s: %v, the API: %v", i+1, k, g[k], want[i][k])
			}
		}
		if g["screeningId"] == "" || !strings.HasSuffix(g["proofUrl"].(string), "/"+g["screeningId"].(string)) {
			t.Fatalf("JSON row %d: proof %v %v", i+1, g["screeningId"], g["proofUrl"])
		}
	}
}

// TestConsoleModerationMakesAListVersion: the administrator signs in, sees
// two pending reports in the moderation queue, confirms one with a reason
// and rejects the other (first without a reason: the problem document's
// title and detail show); the confirmation makes a new list version, which
// the versions page shows (its chart, its counts, and its change: the
// address added from the community source), and the address screens
// flagged. The anchoring page shows the current roots the API serves.
// Every control of the page, the queue's reason fields included, has a
// label.
func TestConsoleModerationMakesAListVersion(t *testing.T) {
	ts := apitest.NewServer(t, apitest.SanctionsLists(t))
	const suspect, innocent = "0x00000000000000000000000000000000000f4e51", "0x00000000000000000000000000000000000f4e52"
	reporter := ts.Register(t, "")
	confirm := ts.Do(t, "POST", "/v1/compliance/report", reporter.Key, map[string]any{"address": suspect, "chain": "ethereum",
		"category": "scam", "reason": "drained a wallet", "evidence": []string{"https://etherscan.io/tx/0x" + strings.Repeat("ab", 32)}}).Must(t, 201).Str("reportId")
	reject := ts.Do(t, "POST", "/v1/compliance/report", reporter.Key, apitest.ReportBody(innocent)).Must(t, 201).Str("reportId")
	if v := ts.ListVersion(t); v != 1 {
		t.Fatalf("list version %v before moderation", v)
	}

	ctx := browsertest.New(t)
	console := browsertest.Console(t, ctx)
	signIn(t, ctx, ts, apitest.AdminToken)
	browsertest.Do(t, ctx, chromedp.Click(chromedp.CSS(`#nav a[data-page="moderation"]`)),
		chromedp.WaitVisible(chromedp.CSS(`tr[data-report="`+confirm+`"]`)), chromedp.WaitVisible(chromedp.CSS(`tr[data-report="`+reject+`"]`)))
	browsertest.SaveScreenshot(t, ctx, "../docs/console-moderation.png")
	if u := unlabelled(t, ctx); len(u) > 0 {
		t.Fatalf("controls without a label: %q", u)
	}
	browsertest.Do(t, ctx,
		chromedp.SendKeys(chromedp.CSS(`input[data-reason="`+confirm+`"]`), "reported with a transaction that drained a wallet"),
		chromedp.Click(chromedp.CSS(`button[data-act="confirm"][data-id="`+confirm+`"]`)))
	waitJS(t, ctx, `document.getElementById('moderation-done').textContent.includes('new list version')`)
	// A rejection without a reason: the problem's title and detail show.
	browsertest.Do(t, ctx, chromedp.Click(chromedp.CSS(`button[data-act="reject"][data-id="`+reject+`"]`)))
	browsertest.Do(t, ctx, chromedp.Poll[chromedp.Void](`document.getElementById('moderation-error').textContent`, chromedp.WithPollingTimeout(0)))
	if e := js[string](t, ctx, `document.getElementById('moderation-error').textContent`); e != "Bad Request: reason is required to reject or delist (at most 500 bytes). (invalid)" {
		t.Fatalf("error shown for a rejection without reason: %q", e)
	}
	browsertest.Do(t, ctx,
		chromedp.SendKeys(chromedp.CSS(`input[data-reason="`+reject+`"]`), "not a scam"),
		chromedp.Click(chromedp.CSS(`button[data-act="reject"][data-id="`+reject+`"]`)))
	waitJS(t, ctx, `document.getElementById('moderation-done').textContent.startsWith('reject')`)
	if ts.ListVersion(t) != 2 || ts.ScreenStatus(t, reporter.Key, suspect) != "flagged" || ts.ScreenStatus(t, reporter.Key, innocent) != "clear" {
		t.Fatalf("after the decisions: version %v", ts.ListVersion(t))
	}
	reports := ts.Do(t, "GET", "/v1/admin/reports", apitest.AdminToken, nil).Must(t, 200).JSON["reports"].([]any)
	for _, r := range reports {
		r := r.(map[string]any)
		want := map[string]string{confirm: "confirmed", reject: "rejected"}[r["reportId"].(string)]
		if r["status"] != want {
			t.Fatalf("report %v is %v, want %s", r["reportId"], r["status"], want)
		}
	}
	if m := reports[1].(map[string]any)["moderation"].(map[string]any); m["reason"] != "reported with a transaction that drained a wallet" {
		t.Fatalf("the reason typed is not recorded: %v", m)
	}

	browsertest.Do(t, ctx, chromedp.Click(chromedp.CSS(`#nav a[data-page="versions"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#versions-table tr[data-version="2"]`)))
	if n := js[int](t, ctx, `document.querySelectorAll('#versions-table tbody tr').length`); n != 2 {
		t.Fatalf("%d versions shown", n)
	}
	if n := js[int](t, ctx, `document.querySelectorAll('#versions-chart svg circle').length`); n != 2 {
		t.Fatalf("%d points on the chart", n)
	}
	if added := js[string](t, ctx, `document.querySelector('#versions-table tr[data-version="2"] td:nth-of-type(3)').textContent`); added != "1" {
		t.Fatalf("version 2 added %q", added)
	}
	browsertest.Do(t, ctx, chromedp.Click(chromedp.CSS(`button[data-changes="2"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#changes-table tr[data-change="added"]`)))
	row := js[string](t, ctx, `[...document.querySelectorAll('#changes-table tbody tr')].map(r => r.textContent).join('|')`)
	if !strings.HasPrefix(row, "addedevm"+suspect+"community") || strings.Contains(row, "|") {
		t.Fatalf("changes of version 2: %q", row)
	}
	browsertest.SaveScreenshot(t, ctx, "../docs/console-versions.png")

	browsertest.Do(t, ctx, chromedp.Click(chromedp.CSS(`#nav a[data-page="anchoring"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#anchoring-roots dd`)))
	root := ts.Do(t, "GET", "/v1/compliance/merkle-root", apitest.AdminToken, nil).Must(t, 200)
	facts := js[string](t, ctx, `document.getElementById('anchoring-roots').textContent`)
	if !strings.Contains(facts, "List version2") || !strings.Contains(facts, root.Str("sanctionsRoot")) || !strings.Contains(facts, root.Str("communityRoot")) {
		t.Fatalf("anchoring page: %q", facts)
	}
	// The browser logs the refused rejection's 400, and nothing else.
	if errs := console.Errors(); len(errs) != 1 || !strings.Contains(errs[0], "status of 400") {
		t.Fatalf("the page reported errors: %q", errs)
	}
}

// TestConsoleAgentsAndCredits, with the keyboard only: the administrator
// opens the agents page, looks an agent up, grants its developer credits
// (the balance the page shows is the API's) and revokes it (its key stops
// working). Then a developer token signs in: the page names the developer
// and its balance, and the administrator's pages are neither shown nor
// reachable by their address.
func TestConsoleAgentsAndCredits(t *testing.T) {
	ts := apitest.NewServer(t)
	a := ts.Register(t, "desk")
	ctx := browsertest.New(t)
	console := browsertest.Console(t, ctx)
	signIn(t, ctx, ts, apitest.AdminToken)
	browsertest.Do(t, ctx, chromedp.Focus(chromedp.CSS(`#nav a[data-page="agents"]`)), chromedp.KeyEvent("\r"),
		chromedp.WaitVisible(chromedp.CSS("#agent-id")), chromedp.Focus(chromedp.CSS("#agent-id")), chromedp.KeyEvent(a.ID+"\r"),
		chromedp.WaitVisible(chromedp.CSS("#agent-facts dd")))
	facts := js[string](t, ctx, `document.getElementById('agent-facts').textContent`)
	if !strings.Contains(facts, "Agent"+a.ID) || !strings.Contains(facts, "Namedesk") || !strings.Contains(facts, "Credits of the developer100") {
		t.Fatalf("agent facts: %q", facts)
	}
	browsertest.Do(t, ctx, chromedp.Focus(chromedp.CSS("#grant-amount")), chromedp.KeyEvent("250"),
		chromedp.Focus(chromedp.CSS("#grant-reason")), chromedp.KeyEvent("pilot of the compliance desk\r"))
	waitJS(t, ctx, `document.getElementById('agents-done').textContent.startsWith('Granted')`)
	if done := js[string](t, ctx, `document.getElementById('agents-done').textContent`); done != "Granted 250 credits: "+a.DeveloperID+" now has 350." ||
		ts.Balance(t, a.Key) != 350 || !strings.Contains(js[string](t, ctx, `document.getElementById('agent-facts').textContent`), "developer350") {
		t.Fatalf("after the grant: %q, balance %d", done, ts.Balance(t, a.Key))
	}
	browsertest.SaveScreenshot(t, ctx, "../docs/console-agents.png")
	browsertest.Do(t, ctx, chromedp.Focus(chromedp.CSS("#agent-revoke")), chromedp.KeyEvent("\r"))
	waitJS(t, ctx, `document.getElementById('agents-done').textContent.includes('revoked')`)
	ts.Do(t, "GET", "/v1/agents/self", a.Key, nil).Must(t, 403)

	dev := ts.Register(t, "")
	jwt := developerToken(t, dev.DeveloperID)
	browsertest.Do(t, ctx, chromedp.Click(chromedp.CSS("#signout")), chromedp.WaitVisible(chromedp.CSS("#credential")))
	if js[string](t, ctx, `sessionStorage.getItem('cairn.console.credential') || ''`) != "" {
		t.Fatal("signing out left the credential in the tab")
	}
	browsertest.Do(t, ctx, chromedp.Focus(chromedp.CSS("#credential")), chromedp.KeyEvent(jwt+"\r"), chromedp.WaitVisible(chromedp.CSS("#nav")))
	if who := js[string](t, ctx, `document.getElementById('who').textContent`); who != "Developer of "+dev.DeveloperID+": 100 credits" {
		t.Fatalf("signed in as %q", who)
	}
	if shown := js[bool](t, ctx, `getComputedStyle(document.querySelector('#nav a[data-page="moderation"]')).display !== 'none' && document.querySelector('#nav a[data-page="moderation"]').offsetParent !== null`); shown {
		t.Fatal("a developer sees the moderation link")
	}
	js[bool](t, ctx, `(location.hash = '#moderation', true)`)
	waitJS(t, ctx, `!document.getElementById('page-screen').hidden && document.getElementById('page-moderation').hidden`)
	console.NoErrors(t)
}

// TestConsoleTenThousandRows: a pasted list of 10,000 addresses is
// screened in 100 requests and the table holds one page of 50 rows, the
// filters and pages working over all 10,000; 10,001 addresses are refused
// before anything is sent.
func TestConsoleTenThousandRows(t *testing.T) {
	ts, a := screeningServer(t, "", 10000)
	ctx := browsertest.New(t)
	console := browsertest.Console(t, ctx)
	signIn(t, ctx, ts, a.Key)
	paste := func(n int) {
		js[bool](t, ctx, fmt.Sprintf(`(() => { const lines = [];
			for (let i = 0; i < %d; i++) lines.push(i %% 100 === 0 ? %q : '0x' + (0xc0ffee000 + i).toString(16).padStart(40, '0'));
			const ta = document.getElementById('screen-text'); ta.value = lines.join('\n');
			ta.dispatchEvent(new Event('input', {bubbles: true})); return true; })()`, n, apitest.Tornado))
	}
	paste(10001)
	waitJS(t, ctx, `document.getElementById('screen-estimate').textContent.startsWith('10,001 addresses')`)
	if !js[bool](t, ctx, `document.getElementById('screen-start').disabled`) {
		t.Fatal("10,001 addresses can be started")
	}
	paste(10000)
	waitJS(t, ctx, `document.getElementById('screen-estimate').textContent.startsWith('10,000 addresses in 100 requests')`)
	browsertest.Do(t, ctx, chromedp.Click(chromedp.CSS("#screen-start")))
	waitJS(t, ctx, `document.getElementById('screen-progress').value === 10000 && !document.getElementById('screen-start').disabled`)
	rows := func() int { return js[int](t, ctx, `document.querySelectorAll('#results-table tbody tr').length`) }
	if n, s := rows(), js[string](t, ctx, `document.getElementById('results-summary').textContent`); n != 50 || s != "10,000 results: 100 sanctioned, 9,900 clear." {
		t.Fatalf("%d rows in the table, summary %q", n, s)
	}
	choose(t, ctx, "filter-status", "sanctioned")
	browsertest.Do(t, ctx, chromedp.Click(chromedp.CSS("#page-next")))
	if first := js[string](t, ctx, `document.querySelector('#results-table tbody tr td').textContent`); first != "5001" || rows() != 50 {
		t.Fatalf("second page of the sanctioned starts at row %s", first)
	}
	console.NoErrors(t)
}

// TestConsoleStopsAtARefusal: a list whose 120th line names a chain the
// service does not know is screened up to the refused request, which the
// page names by its line and address with the problem's title and
// detail; the 100 results before it stay, and nothing more is charged.
func TestConsoleStopsAtARefusal(t *testing.T) {
	ts, a := screeningServer(t, "", 500)
	var lines []string
	for i := range 150 {
		chain := "ethereum"
		if i == 119 {
			chain = "dogechain"
		}
		lines = append(lines, fmt.Sprintf("0x%040x,%s", 0xbad000+i, chain))
	}
	ctx := browsertest.New(t)
	signIn(t, ctx, ts, a.Key)
	js[bool](t, ctx, fmt.Sprintf(`(() => { const ta = document.getElementById('screen-text'); ta.value = %q;
		ta.dispatchEvent(new Event('input', {bubbles: true})); return true; })()`, strings.Join(lines, "\n")))
	waitJS(t, ctx, `document.getElementById("screen-estimate").textContent.includes("credits")`)
	before := ts.Balance(t, a.Key)
	browsertest.Do(t, ctx, chromedp.Click(chromedp.CSS("#screen-start")))
	browsertest.Do(t, ctx, chromedp.Poll[chromedp.Void](`document.getElementById('screen-error').textContent`, chromedp.WithPollingTimeout(0)))
	msg := js[string](t, ctx, `document.getElementById('screen-error').textContent`)
	if !strings.HasPrefix(msg, fmt.Sprintf("Stopped after 100 addresses (line 120: 0x%040x). Bad Request: ", 0xbad000+119)) || !strings.Contains(msg, "dogechain") {
		t.Fatalf("error shown: %q", msg)
	}
	waitJS(t, ctx, `!document.getElementById('screen-start').disabled`)
	if s := js[string](t, ctx, `document.getElementById('results-summary').textContent`); s != "100 results: 100 clear." || before-ts.Balance(t, a.Key) != 90 {
		t.Fatalf("after the refusal: %q, charged %d", s, before-ts.Balance(t, a.Key))
	}
}
