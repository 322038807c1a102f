package browsertest

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// Check is one verdict of the proof report page (web/report.html), as a
// reader sees it.
type Check struct {
	Name    string `json:"name"`    // the verifier's name: resultsHash, signature, snapshot:NAME, chain...
	Verdict string `json:"verdict"` // pass, note, skip or fail
	Word    string `json:"word"`    // what the page says: Passed, Failed, Not checked...
	Detail  string `json:"detail"`
	// Visible: laid out inside the page, where a reader sees it.
	Visible bool `json:"visible"`
}

// Report opens the proof report page at url in the tab of ctx, waits
// until it has checked the document, and returns its overall verdict
// (pass or fail) and its checks by name. A check the reader cannot see
// fails t.
func Report(t testing.TB, ctx context.Context, url string) (verdict string, checks map[string]Check) {
	t.Helper()
	Do(t, ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`#report[data-verdict]`)))
	verdict = Run(t, ctx, chromedp.Evaluate[string](`document.getElementById('report').dataset.verdict`))
	list := Run(t, ctx, chromedp.Evaluate[[]Check](`[...document.querySelectorAll('#checks li')].map((li) => ({
		name: li.dataset.check, verdict: li.dataset.verdict, word: li.querySelector('.word').textContent,
		detail: li.querySelector('.detail').textContent,
		visible: ((r) => r.width > 0 && r.height > 0 && r.left >= 0)(li.getBoundingClientRect())}))`))
	checks = map[string]Check{}
	for _, c := range list {
		checks[c.Name] = c
		if !c.Visible {
			t.Errorf("check %s is not visible on the page", c.Name)
		}
	}
	return verdict, checks
}

// TamperProxy serves base through a proxy that rewrites with edit the
// bodies of the answers for which match holds (everything else passes as
// it is), as a man in the middle would; it returns the proxy's URL.
func TamperProxy(t testing.TB, base string, match func(*http.Response) bool, edit func([]byte) []byte) string {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	p := httputil.NewSingleHostReverseProxy(u)
	p.ModifyResponse = func(r *http.Response) error {
		if !match(r) {
			return nil
		}
		b, err := io.ReadAll(r.Body)
		if err != nil {
			return err
		}
		_ = r.Body.Close()
		b = edit(b)
		r.Body = io.NopCloser(bytes.NewReader(b))
		r.ContentLength = int64(len(b))
		r.Header.Set("Content-Length", strconv.Itoa(len(b)))
		return nil
	}
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	return srv.URL
}

// IsProofJSON matches the JSON answers of GET /v1/compliance/proofs/:id
// (the documents the report page fetches), for TamperProxy.
func IsProofJSON(r *http.Response) bool {
	return strings.HasPrefix(r.Request.URL.Path, "/v1/compliance/proofs/") && strings.HasPrefix(r.Header.Get("Content-Type"), "application/json")
}
