package browsertest_test

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/browsertest"
	"github.com/cairn-dev/cairn/web"
	"github.com/chromedp/chromedp"
)

// page holds an inline script, which its Content-Security-Policy forbids,
// and a module script from the origin, which imports the embedded
// verifier and writes the SHA-256 of "abc" into #out.
const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>harness</title>
<script>document.title = "inline ran"</script>
<script type="module" src="/app.js"></script></head>
<body><label for="in">In</label> <input id="in"><output id="out"></output></body></html>`

const app = `import { sha256, toHex } from './cairn-verify.js';
document.getElementById('out').textContent = toHex(sha256(new TextEncoder().encode('abc')));
document.getElementById('out').dataset.done = '1';`

// TestBrowserRunsEmbeddedVerifierUnderCSP: Chromium starts, loads a page
// under a strict Content-Security-Policy, runs the embedded JavaScript
// verifier as an ES module (its SHA-256 equals Go's), refuses the page's
// inline script and reports the violation on the console, takes keyboard
// input, and takes a full-page screenshot.
func TestBrowserRunsEmbeddedVerifierUnderCSP(t *testing.T) {
	mux := http.NewServeMux()
	serve := func(path, ctype, body string) {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; connect-src 'self'")
			w.Header().Set("Content-Type", ctype)
			_, _ = w.Write([]byte(body))
		})
	}
	serve("/{$}", "text/html; charset=utf-8", page)
	serve("/app.js", "text/javascript", app)
	serve("/cairn-verify.js", "text/javascript", string(web.VerifierJS))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	ctx := browsertest.New(t)
	console := browsertest.Console(t, ctx)
	browsertest.Do(t, ctx,
		chromedp.Navigate(srv.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS(`#out[data-done="1"]`)),
	)
	got := browsertest.Run(t, ctx, chromedp.Text(chromedp.CSS("#out")))
	want := sha256.Sum256([]byte("abc"))
	if got != hex.EncodeToString(want[:]) && got != "0x"+hex.EncodeToString(want[:]) {
		t.Errorf("sha256 in the browser = %q, want %x", got, want)
	}
	if title := browsertest.Run(t, ctx, chromedp.Title()); title != "harness" {
		t.Errorf("title %q: the inline script ran despite the policy", title)
	}
	msg := console.Wait(t, ctx, "Content Security Policy")
	if !strings.Contains(msg, "inline script") {
		t.Errorf("violation message %q does not name the inline script", msg)
	}

	browsertest.Do(t, ctx, chromedp.Focus(chromedp.CSS("#in")), chromedp.KeyEvent("typed"))
	if v := browsertest.Run(t, ctx, chromedp.Value(chromedp.CSS("#in"))); v != "typed" {
		t.Errorf("input value %q after typing, want typed", v)
	}
	if png := browsertest.Screenshot(t, ctx); len(png) == 0 {
		t.Error("empty screenshot")
	}
}
