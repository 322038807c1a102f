package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
)

func TestE2EDeveloperToken(t *testing.T) {
	dir := t.TempDir()
	ts := startServer(t, testConfig(t, dir))
	a := ts.register(t, "")
	var out, errOut bytes.Buffer
	if code := Run(t.Context(), []string{"token", "--developer-id", a.DeveloperID, "--data-dir", dir, "--ttl", "1h"}, &out, &errOut, func(string) string { return "" }); code != 0 {
		t.Fatalf("token exit %d: %s", code, errOut.String())
	}
	jwt := strings.TrimSpace(out.String())
	r := ts.do(t, "GET", "/v1/billing/balance", jwt, nil).must(t, 200)
	if r.str("developerId") != a.DeveloperID || r.num("creditBalance") != 100 {
		t.Fatalf("balance by JWT: %s", r.Body)
	}
	ts.do(t, "GET", "/v1/billing/balance", jwt[:len(jwt)-2]+"xx", nil).problem(t, 401, cairn.EUNAUTHORIZED)
	// Developer tokens are not agent keys: agent-only routes refuse them.
	ts.do(t, "GET", "/v1/agents/self", jwt, nil).problem(t, 401, cairn.EUNAUTHORIZED)

	out.Reset()
	other := strings.Repeat("o", 32)
	if code := Run(t.Context(), []string{"token", "--developer-id", a.DeveloperID, "--jwt-secret", other}, &out, &errOut, func(string) string { return "" }); code != 0 {
		t.Fatalf("token with explicit secret failed: %s", errOut.String())
	}
	ts.do(t, "GET", "/v1/billing/balance", strings.TrimSpace(out.String()), nil).problem(t, 401, cairn.EUNAUTHORIZED)
	// The server's rules hold for the secret: 32 bytes at least, given once.
	out.Reset()
	errOut.Reset()
	if code := Run(t.Context(), []string{"token", "--developer-id", a.DeveloperID, "--jwt-secret", "short"}, &out, &errOut, func(string) string { return "" }); code != 2 || out.Len() != 0 || !strings.Contains(errOut.String(), "at least 32") {
		t.Fatalf("token with a 5-byte secret: exit %d, out %q, err %q; want 2, nothing printed, the rule named", code, out.String(), errOut.String())
	}
	secretFile := filepath.Join(t.TempDir(), "jwt")
	if err := os.WriteFile(secretFile, []byte(other+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := Run(t.Context(), []string{"token", "--developer-id", a.DeveloperID, "--jwt-secret-file", secretFile}, &out, &errOut, func(string) string { return "" }); code != 0 {
		t.Fatalf("token with --jwt-secret-file: %s", errOut.String())
	}
	if code := Run(t.Context(), []string{"token", "--developer-id", a.DeveloperID, "--jwt-secret-file", secretFile, "--jwt-secret", other}, &out, &errOut, func(string) string { return "" }); code != 2 {
		t.Fatalf("token with the secret given twice: exit %d, want 2", code)
	}
	if code := Run(t.Context(), []string{"token"}, &out, &errOut, func(string) string { return "" }); code != 2 {
		t.Fatalf("token without --developer-id exit %d, want 2", code)
	}
	// A data dir without the server's key is refused, and no key is created
	// there (it would sign tokens no server accepts).
	empty := filepath.Join(t.TempDir(), "data")
	out.Reset()
	errOut.Reset()
	if code := Run(t.Context(), []string{"token", "--developer-id", a.DeveloperID, "--data-dir", empty}, &out, &errOut, func(string) string { return "" }); code != 2 || out.Len() != 0 || !strings.Contains(errOut.String(), "--data-dir") {
		t.Fatalf("token over an empty data dir: exit %d, out %q, err %q", code, out.String(), errOut.String())
	}
	if _, err := os.Stat(empty); !os.IsNotExist(err) {
		t.Fatalf("token created %s: %v", empty, err)
	}
}
