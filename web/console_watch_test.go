package web_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/account"
	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/internal/browsertest"
	"github.com/chromedp/chromedp"
)

// developerToken is a developer token (JWT) of the test server for id,
// valid for an hour.
func developerToken(t *testing.T, id string) string {
	t.Helper()
	jwt, err := (&account.Tokens{Secret: apitest.JWTSecret, Clock: cairn.SystemClock{}}).Issue(id, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	return jwt
}

// TestConsoleWatchlists: a developer creates a watchlist from pasted
// addresses (the invalid one shown as rejected, the others taken),
// registers a webhook to a local receiver and sees its secret once, finds
// it listed as enabled, and deletes the watchlist; the service agrees at
// each step.
func TestConsoleWatchlists(t *testing.T) {
	ts := apitest.NewServer(t)
	dev := ts.Register(t, "desk")
	jwt := developerToken(t, dev.DeveloperID)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	t.Cleanup(receiver.Close)
	ctx := browsertest.New(t)
	console := browsertest.Console(t, ctx)
	signIn(t, ctx, ts, jwt)
	browsertest.Do(t, ctx, chromedp.Focus(chromedp.CSS(`#nav a[data-page="watch"]`)), chromedp.KeyEvent("\r"),
		chromedp.WaitVisible(chromedp.CSS("#watch-name")),
		chromedp.Focus(chromedp.CSS("#watch-name")), chromedp.KeyEvent("treasury"),
		chromedp.SetValue(chromedp.CSS("#watch-addresses"), "0x1111111111111111111111111111111111111111\nnot-an-address\n0x2222222222222222222222222222222222222222,polygon"),
		chromedp.Click(chromedp.CSS(`#watch-form button[type="submit"]`)))
	waitJS(t, ctx, `document.getElementById('watch-done').textContent.startsWith('Created')`)
	rejected := js[string](t, ctx, `document.getElementById('watch-rejected').textContent`)
	if !strings.Contains(rejected, "Line 2: not-an-address (ethereum): invalid_address") || js[int](t, ctx, `document.querySelectorAll('#watch-rejected li').length`) != 1 {
		t.Fatalf("rejections shown: %q", rejected)
	}
	lists := ts.Do(t, "GET", "/v1/compliance/watchlists", dev.Key, nil).Must(t, 200)
	row := js[string](t, ctx, `document.querySelector('#watchlists-table tbody tr').textContent`)
	if !strings.Contains(string(lists.Body), `"addressCount":2`) || !strings.HasPrefix(row, "treasury") || !strings.Contains(row, "2") {
		t.Fatalf("watchlists: %s; row %q", string(lists.Body), row)
	}

	browsertest.Do(t, ctx, chromedp.SetValue(chromedp.CSS("#hook-url"), receiver.URL+"/cairn"),
		chromedp.Click(chromedp.CSS("#hook-ev-version")), chromedp.Click(chromedp.CSS(`#hook-form button[type="submit"]`)))
	waitJS(t, ctx, `document.getElementById('watch-done').textContent.startsWith('Registered')`)
	secret := js[string](t, ctx, `document.getElementById('hook-secret').textContent`)
	hooks := ts.Do(t, "GET", "/v1/webhooks", dev.Key, nil).Must(t, 200)
	if len(secret) < 16 || strings.Contains(string(hooks.Body), secret) || !strings.Contains(string(hooks.Body), `"events":["list.version","watchlist.hit"]`) {
		t.Fatalf("secret %q, webhooks %s", secret, string(hooks.Body))
	}
	if note := js[string](t, ctx, `document.getElementById('hook-secret-note').textContent`); !strings.Contains(note, "shown only now") {
		t.Fatalf("secret note %q", note)
	}
	waitJS(t, ctx, `document.querySelector('#hooks-table tbody tr') && document.querySelector('#hooks-table tbody tr').textContent.includes('enabled')`)
	if row := js[string](t, ctx, `document.querySelector('#hooks-table tbody').textContent`); !strings.Contains(row, receiver.URL+"/cairn") || strings.Contains(row, secret) {
		t.Fatalf("webhooks shown: %q", row)
	}
	browsertest.SaveScreenshot(t, ctx, "../docs/console-watchlists.png")

	browsertest.Do(t, ctx, chromedp.Click(chromedp.CSS(`#watchlists-table button[aria-label="Delete watchlist treasury"]`)))
	waitJS(t, ctx, `document.getElementById('watch-done').textContent === 'Deleted the watchlist treasury.'`)
	if n := js[int](t, ctx, `document.querySelectorAll('#watchlists-table tbody tr').length`); n != 0 {
		t.Fatalf("%d watchlists still shown", n)
	}
	if after := ts.Do(t, "GET", "/v1/compliance/watchlists", dev.Key, nil).Must(t, 200); strings.Contains(string(after.Body), "treasury") {
		t.Fatalf("still listed: %s", string(after.Body))
	}
	if miss := unlabelled(t, ctx); len(miss) > 0 {
		t.Fatalf("unlabelled controls: %q", miss)
	}
	console.NoErrors(t)
}

// TestConsoleAlertsAndDeliveries: on the page a developer adds and
// removes an address of a watchlist, sees a refused webhook's problem,
// then, after a list version lists a watched address, the alert with the
// link to its proof and the webhook's delivery, sends it again (the
// receiver gets it twice) and rotates the secret.
func TestConsoleAlertsAndDeliveries(t *testing.T) {
	eth, xbt := apitest.ListFiles(t)
	ts := apitest.NewServer(t, apitest.Lists(t, "list:ETH="+eth, "list:XBT="+xbt))
	dev := ts.Register(t, "desk")
	const watched, other = "0x1111111111111111111111111111111111111111", "0x3333333333333333333333333333333333333333"
	got := make(chan string, 16)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- string(b)
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(receiver.Close)
	ts.Do(t, "POST", "/v1/compliance/watchlists", dev.Key, map[string]any{"name": "hot wallets",
		"addresses": []map[string]string{{"address": watched, "chain": "ethereum"}}}).Must(t, http.StatusCreated)
	hook := ts.Do(t, "POST", "/v1/webhooks", dev.Key, map[string]any{"url": receiver.URL, "events": []string{"watchlist.hit"}}).Must(t, http.StatusCreated)
	ctx := browsertest.New(t)
	console := browsertest.Console(t, ctx)
	signIn(t, ctx, ts, developerToken(t, dev.DeveloperID))
	browsertest.Do(t, ctx, chromedp.Focus(chromedp.CSS(`#nav a[data-page="watch"]`)), chromedp.KeyEvent("\r"))
	waitJS(t, ctx, `document.querySelector('#watchlists-table button[aria-label="Addresses of hot wallets"]')`)
	browsertest.Do(t, ctx, chromedp.Focus(chromedp.CSS(`#watchlists-table button[aria-label="Addresses of hot wallets"]`)), chromedp.KeyEvent("\r"),
		chromedp.WaitVisible(chromedp.CSS("#watched-add")), chromedp.SetValue(chromedp.CSS("#watched-add"), other),
		chromedp.Click(chromedp.CSS(`#watched-form button[type="submit"]`)))
	waitJS(t, ctx, `document.querySelectorAll('#watched-table tbody tr').length === 2`)
	browsertest.Do(t, ctx, chromedp.Click(chromedp.CSS(`#watched-table button[aria-label="Remove `+other+`"]`)))
	waitJS(t, ctx, `document.getElementById('watch-done').textContent === 'Removed 1 address.' && document.querySelectorAll('#watched-table tbody tr').length === 1`)
	if w := ts.Do(t, "GET", "/v1/compliance/watchlists", dev.Key, nil).Must(t, 200); !strings.Contains(string(w.Body), `"addressCount":1`) {
		t.Fatalf("after add and remove: %s", w.Body)
	}

	console.NoErrors(t)
	refused := ts.Do(t, "POST", "/v1/webhooks", dev.Key, map[string]any{"url": "ftp://x.example", "events": []string{"watchlist.hit"}}).Problem(t, http.StatusBadRequest, "invalid")
	browsertest.Do(t, ctx, chromedp.SetValue(chromedp.CSS("#hook-url"), "ftp://x.example"), chromedp.Click(chromedp.CSS(`#hook-form button[type="submit"]`)))
	want := refused.Str("title") + ": " + refused.Str("detail") + " (invalid)"
	browsertest.Do(t, ctx, chromedp.Poll[chromedp.Void](`document.getElementById('watch-error').textContent !== ''`, chromedp.WithPollingTimeout(0)))
	if shown := js[string](t, ctx, `document.getElementById('watch-error').textContent`); shown != want {
		t.Fatalf("refusal shown %q, want %q", shown, want)
	}

	orig, err := os.ReadFile(eth)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(eth, append(orig, "\n"+watched+"\n"...), 0o600); err != nil {
		t.Fatal(err)
	}
	ts.Do(t, "POST", "/v1/admin/ingest", apitest.AdminToken, nil).Must(t, http.StatusOK)
	if first := <-got; !strings.Contains(first, `"watchlist.hit"`) {
		t.Fatalf("delivered %s", first)
	}
	alert := ts.Do(t, "GET", "/v1/compliance/alerts", dev.Key, nil).Must(t, 200).JSON["alerts"].([]any)[0].(map[string]any)
	browsertest.Do(t, ctx, chromedp.Reload())
	waitJS(t, ctx, `document.querySelector('#alerts-table tbody tr a')`)
	row := js[string](t, ctx, `document.querySelector('#alerts-table tbody tr').textContent`)
	if href := js[string](t, ctx, `document.querySelector('#alerts-table tbody tr a').getAttribute('href')`); href != alert["proofUrl"] ||
		!strings.Contains(row, "sanctioned") || !strings.Contains(row, watched) {
		t.Fatalf("alert row %q, proof %q, want %v", row, href, alert)
	}

	url := receiver.URL
	browsertest.Do(t, ctx, chromedp.Click(chromedp.CSS(`#hooks-table button[aria-label="Deliveries of `+url+`"]`)))
	waitJS(t, ctx, `document.querySelector('#deliveries-table tbody tr') && document.querySelector('#deliveries-table tbody tr').textContent.includes('watchlist.hit')`)
	browsertest.Do(t, ctx, chromedp.Click(chromedp.CSS(`#deliveries-table button`)))
	waitJS(t, ctx, `document.getElementById('watch-done').textContent.startsWith('Queued')`)
	if again := <-got; !strings.Contains(again, `"watchlist.hit"`) {
		t.Fatalf("redelivered %s", again)
	}
	browsertest.Do(t, ctx, chromedp.Click(chromedp.CSS(`#hooks-table button[aria-label="Rotate the secret of `+url+`"]`)))
	waitJS(t, ctx, `document.getElementById('watch-done').textContent.startsWith('Rotated')`)
	if s := js[string](t, ctx, `document.getElementById('hook-secret').textContent`); !strings.HasPrefix(s, "whsec_") || s == hook.Str("secret") {
		t.Fatalf("rotated secret %q (was %q)", s, hook.Str("secret"))
	}
	// The browser logs the refused request's 400, and nothing else.
	if errs := console.Errors(); len(errs) != 1 || !strings.Contains(errs[0], "status of 400") {
		t.Fatalf("the page reported errors: %q", errs)
	}
}
