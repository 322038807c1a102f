package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

const mcpTestToken = "mcp-test-token-0123456789abcdef-xyz"

// bearerTransport adds Authorization: Bearer to every request.
type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestMCPListenRefusedOffLoopback: `cairn mcp --mcp-listen` on an address
// other than loopback, without a token (or with a short one, or a token
// file others can read), is a usage error before anything listens.
func TestMCPListenRefusedOffLoopback(t *testing.T) {
	loose := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(loose, []byte(mcpTestToken), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		args []string
		env  map[string]string
		want string
	}{
		"ErrAllInterfaces": {[]string{"--mcp-listen", "0.0.0.0:0"}, nil, "--mcp-token"},
		"ErrEmptyHost":     {[]string{"--mcp-listen", ":0"}, nil, "not a loopback address"},
		"ErrIPv6Any":       {[]string{"--mcp-listen", "[::]:0"}, nil, "not a loopback address"},
		"ErrShortToken":    {[]string{"--mcp-listen", "0.0.0.0:0"}, map[string]string{"CAIRN_MCP_TOKEN": "short"}, "want at least 32"},
		"ErrLooseFile":     {[]string{"--mcp-listen", "0.0.0.0:0", "--mcp-token-file", loose}, nil, "--mcp-token-file"},
	} {
		t.Run(name, func(t *testing.T) {
			env := map[string]string{"CAIRN_API_KEY": "sk_test"}
			for k, v := range tc.env {
				env[k] = v
			}
			var out, errb strings.Builder
			// Cancelled: a command that listened would stop at once, exit 0.
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			code := Run(ctx, append([]string{"mcp", "--server-url", "http://127.0.0.1:1"}, tc.args...), &out, &errb,
				func(k string) string { return env[k] })
			if code != 2 || !strings.Contains(errb.String(), tc.want) || out.Len() != 0 {
				t.Fatalf("exit %d, stdout %q, stderr %q: want 2 and %q", code, out.String(), errb.String(), tc.want)
			}
			if strings.Contains(errb.String(), mcpTestToken) || strings.Contains(errb.String(), "short\"") {
				t.Fatalf("the token is in the error: %q", errb.String())
			}
		})
	}
}

// TestMCPListenBearerToken: with --mcp-token-file, `cairn mcp` listens on
// every interface and answers 401 (a problem document) to a request
// without the token or with a wrong one; an MCP client sending it calls
// tools as the agent.
func TestMCPListenBearerToken(t *testing.T) {
	ts := startServer(t, testConfig(t, t.TempDir()))
	a := ts.register(t, "")
	file := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(file, []byte(mcpTestToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	var errb strings.Builder
	go func() {
		done <- Run(ctx, []string{"mcp", "--server-url", ts.base, "--mcp-listen", "0.0.0.0:0", "--mcp-token-file", file}, pw, &errb,
			func(k string) string { return map[string]string{"CAIRN_API_KEY": a.Key}[k] })
		pw.Close()
	}()
	defer func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("cairn mcp exited %d: %s", code, errb.String())
		}
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("cairn mcp: %v (%s)", err, errb.String())
	}
	go io.Copy(io.Discard, pr)
	_, port, err := net.SplitHostPort(strings.TrimPrefix(strings.TrimSpace(line), "cairn mcp: streamable HTTP on http://"))
	if err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	endpoint := "http://127.0.0.1:" + port

	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	for name, auth := range map[string]string{"ErrNoToken": "", "ErrWrongToken": "Bearer " + strings.ToUpper(mcpTestToken), "ErrNotBearer": mcpTestToken} {
		t.Run(name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", endpoint, strings.NewReader(init))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if auth != "" {
				req.Header.Set("Authorization", auth)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var problem map[string]any
			_ = json.NewDecoder(resp.Body).Decode(&problem)
			if resp.StatusCode != 401 || resp.Header.Get("Content-Type") != "application/problem+json" || problem["code"] != "unauthorized" ||
				!strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
				t.Fatalf("%d %v %v", resp.StatusCode, resp.Header, problem)
			}
		})
	}
	t.Run("OK", func(t *testing.T) {
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "remote-agent", Version: "1"}, nil).Connect(ctx,
			&sdk.StreamableClientTransport{Endpoint: endpoint, HTTPClient: &http.Client{Transport: bearerTransport{mcpTestToken}}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "balance", Arguments: map[string]any{}})
		if err != nil || res.IsError {
			t.Fatalf("balance with the token: %v %v", res, err)
		}
		if got := res.StructuredContent.(map[string]any)["result"].(map[string]any)["creditBalance"]; got != float64(ts.balance(t, a.Key)) {
			t.Fatalf("balance with the token: %v", got)
		}
	})
}
