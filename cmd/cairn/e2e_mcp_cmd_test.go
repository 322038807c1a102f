package main

import (
	"context"
	"net"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/client"
	"github.com/cairn-dev/cairn/mcp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestE2EMCPStreamableHTTP serves the tools over streamable HTTP, as
// `cairn mcp --mcp-listen` does, and calls one.
func TestE2EMCPStreamableHTTP(t *testing.T) {
	ts := startServer(t, testConfig(t, t.TempDir()))
	a := ts.register(t, "")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serveMCPHTTP(ctx, ln, mcp.NewServer(client.New(ts.base, a.Key)), "") }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "http-agent", Version: "1"}, nil).
		Connect(ctx, &sdk.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "balance", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("balance over HTTP: %v %v", res, err)
	}
	body := res.StructuredContent.(map[string]any)
	if body["result"].(map[string]any)["creditBalance"] != float64(ts.balance(t, a.Key)) || body["creditsCharged"] != float64(0) {
		t.Fatalf("balance over HTTP: %v", body)
	}
}

// TestMCPCommandNeedsKey: `cairn mcp` without CAIRN_API_KEY is a usage
// error that names the variable.
func TestMCPCommandNeedsKey(t *testing.T) {
	var out, errb strings.Builder
	code := Run(context.Background(), []string{"mcp", "--server-url", "http://127.0.0.1:1"}, &out, &errb, func(string) string { return "" })
	if code != 2 || !strings.Contains(errb.String(), "CAIRN_API_KEY") {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
}
