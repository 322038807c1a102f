package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/cairn-dev/cairn/client"
	"github.com/cairn-dev/cairn/mcp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// runMCP serves cairn's MCP tools over stdio, or over streamable HTTP with
// --mcp-listen, calling the server at --server-url with CAIRN_API_KEY.
func runMCP(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("cairn mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	serverURL := fs.String("server-url", "http://127.0.0.1:8080", "the cairn server the tools call")
	listen := fs.String("mcp-listen", "", "serve streamable HTTP on this address (e.g. 127.0.0.1:8090) instead of stdio; an address other than loopback needs --mcp-token")
	token := fs.String("mcp-token", "", "with --mcp-listen: bearer token (at least 32 bytes) every HTTP request must carry as Authorization: Bearer (better from CAIRN_MCP_TOKEN); required off loopback")
	tokenFile := fs.String("mcp-token-file", "", "file (mode 0600) holding the --mcp-token instead")
	if err := parseWithEnv(fs, args, getenv); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		fmt.Fprintln(stderr, err)
		return errUsage
	}
	key := getenv("CAIRN_API_KEY")
	if key == "" {
		fmt.Fprintln(stderr, "CAIRN_API_KEY must hold the agent's API key")
		return errUsage
	}
	srv := mcp.NewServer(client.New(*serverURL, key))
	if *listen == "" {
		return srv.Run(ctx, &sdk.StdioTransport{})
	}
	bearer, err := mcpToken(*listen, *token, *tokenFile)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return errUsage
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "cairn mcp: streamable HTTP on http://%s\n", ln.Addr())
	return serveMCPHTTP(ctx, ln, srv, bearer)
}

// serveMCPHTTP serves srv over streamable HTTP on ln until ctx ends; with
// a token, only to requests bearing it.
func serveMCPHTTP(ctx context.Context, ln net.Listener, srv *sdk.Server, token string) error {
	hs := &http.Server{
		Handler:           requireBearer(token, sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)),
		ReadHeaderTimeout: 10 * time.Second,
	}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(sctx)
		<-done
		return nil
	}
}
