package web_test

import (
	"net/http"
	"net/http/httptest"
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
	if errs := console.Errors(); len(errs) > 0 {
		t.Fatalf("the page reported errors: %q", errs)
	}
}
