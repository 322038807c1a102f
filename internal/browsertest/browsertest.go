// Package browsertest drives a headless Chromium from Go tests, with
// github.com/chromedp/chromedp: New starts the browser (or skips the test
// when there is none, unless CAIRN_REQUIRE_BROWSER=1), Console collects
// what the page writes to its console (script errors and
// Content-Security-Policy violations included), and Screenshot /
// SaveScreenshot take full-page pictures for the documentation
// (refreshed under docs/ with CAIRN_UPDATE_SCREENSHOTS=1). Only tests
// import it.
package browsertest

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Require is the environment variable that turns a missing browser from a
// skip into a failure (CI sets it, having installed chromium).
const Require = "CAIRN_REQUIRE_BROWSER"

// UpdateScreenshots is the environment variable that makes SaveScreenshot
// write the pictures under docs/.
const UpdateScreenshots = "CAIRN_UPDATE_SCREENSHOTS"

// Timeout bounds one browser session, so that a page that never reaches
// the state a test waits for fails the test instead of hanging it.
const Timeout = 2 * time.Minute

// Path is the browser the tests run: $CAIRN_CHROMIUM, else chromium or
// chromium-browser on the PATH, else /usr/bin/chromium; "" when none
// exists.
func Path() string {
	if p := os.Getenv("CAIRN_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	return ""
}

// Options says how New starts the browser.
type Options struct {
	Width, Height int // the window, 1280 x 900 when zero
}

// New starts a headless Chromium for t in a window of 1280 x 900 and
// returns the context of its first tab; the browser stops when t ends.
// Without a browser t is skipped, or fails when CAIRN_REQUIRE_BROWSER=1.
func New(t testing.TB) context.Context {
	return NewWith(t, Options{})
}

// NewWith is New with options.
func NewWith(t testing.TB, o Options) context.Context {
	t.Helper()
	path := Path()
	if path == "" {
		if os.Getenv(Require) == "1" {
			t.Fatalf("%s=1 but no chromium found (apt-get install chromium, or set CAIRN_CHROMIUM)", Require)
		}
		t.Skip("no chromium found (apt-get install chromium, or set CAIRN_CHROMIUM); CAIRN_REQUIRE_BROWSER=1 fails instead")
	}
	if o.Width == 0 || o.Height == 0 {
		o.Width, o.Height = 1280, 900
	}
	parent, cancelTimeout := context.WithTimeout(context.Background(), Timeout)
	ctx, cancel := chromedp.NewContext(parent, chromedp.WithAllocatorOptions(
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.WindowSize(o.Width, o.Height),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("lang", "en-US"),
	))
	t.Cleanup(func() {
		cancel()
		cancelTimeout()
	})
	// The first action starts the browser, so that a browser that cannot
	// start fails here, at the start of the test.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start %s: %v", path, err)
	}
	return ctx
}

// Do runs actions in the tab of ctx, failing t on an error.
func Do(t testing.TB, ctx context.Context, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

// Run runs one action that returns a value in the tab of ctx, failing t
// on an error.
func Run[T any](t testing.TB, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Messages collects what the page of a tab writes to its console:
// console calls, uncaught exceptions and the browser's log (which reports
// Content-Security-Policy violations and failed loads).
type Messages struct {
	mu      sync.Mutex
	msgs    []chromedp.ConsoleMessage
	arrived chan struct{} // closed and replaced at each message
}

// Console starts collecting the console messages of the tab of ctx, from
// now until the browser stops.
func Console(t testing.TB, ctx context.Context) *Messages {
	t.Helper()
	m := &Messages{arrived: make(chan struct{})}
	it := chromedp.Console(ctx)
	go func() {
		for msg, err := range it {
			if err != nil {
				return
			}
			m.mu.Lock()
			m.msgs = append(m.msgs, msg)
			close(m.arrived)
			m.arrived = make(chan struct{})
			m.mu.Unlock()
		}
	}()
	return m
}

// All returns the messages so far, each as "type: text".
func (m *Messages) All() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]string, len(m.msgs))
	for i, msg := range m.msgs {
		out[i] = msg.String()
	}
	return out
}

// Errors returns the error messages and exceptions so far.
func (m *Messages) Errors() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for _, msg := range m.msgs {
		if msg.Type == chromedp.ConsoleError || msg.IsException() {
			out = append(out, msg.String())
		}
	}
	return out
}

// NoErrors fails the test when the page reported an error so far
// (Errors).
func (m *Messages) NoErrors(t testing.TB) {
	t.Helper()
	if errs := m.Errors(); len(errs) > 0 {
		t.Fatalf("the page reported errors: %q", errs)
	}
}

// Containing returns the messages so far whose text holds s.
func (m *Messages) Containing(s string) []string {
	var out []string
	for _, msg := range m.All() {
		if strings.Contains(msg, s) {
			out = append(out, msg)
		}
	}
	return out
}

// Wait waits for a message whose text holds s and returns it; it fails t
// when the browser session ends first (see Timeout).
func (m *Messages) Wait(t testing.TB, ctx context.Context, s string) string {
	t.Helper()
	for {
		m.mu.Lock()
		arrived := m.arrived
		m.mu.Unlock()
		if found := m.Containing(s); len(found) > 0 {
			return found[0]
		}
		select {
		case <-arrived:
		case <-ctx.Done():
			t.Fatalf("no console message holds %q; the console: %q", s, m.All())
		}
	}
}

// Screenshot returns a PNG of the whole page of the tab of ctx, failing t
// when it is not a PNG.
func Screenshot(t testing.TB, ctx context.Context) []byte {
	t.Helper()
	b := Run(t, ctx, chromedp.FullScreenshot(100))
	if _, err := png.DecodeConfig(bytes.NewReader(b)); err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	return b
}

// SaveScreenshot takes a screenshot of the whole page and, when
// CAIRN_UPDATE_SCREENSHOTS=1, writes it to path (relative to the test's
// package, such as ../docs/report.png). It returns the PNG.
func SaveScreenshot(t testing.TB, ctx context.Context, path string) []byte {
	t.Helper()
	b := Screenshot(t, ctx)
	if os.Getenv(UpdateScreenshots) != "1" {
		return b
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", path)
	return b
}
