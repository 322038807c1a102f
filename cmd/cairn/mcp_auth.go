package main

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"

	"github.com/cairn-dev/cairn"
)

// mcpToken is the bearer token `cairn mcp --mcp-listen` requires: from
// --mcp-token (better CAIRN_MCP_TOKEN) or --mcp-token-file (mode 0600),
// at least 32 bytes. Without one, only a loopback address may be listened
// on: every client reaching the endpoint acts as the agent of
// CAIRN_API_KEY. Errors never hold the token.
func mcpToken(listen, token, file string) (string, error) {
	if token != "" && file != "" {
		return "", errors.New("give --mcp-token or --mcp-token-file, not both")
	}
	if file != "" {
		var err error
		if token, err = readSecretFile(file); err != nil {
			return "", fmt.Errorf("--mcp-token-file: %w", err)
		}
	}
	if token != "" && len(token) < minSecretBytes {
		return "", fmt.Errorf("the MCP token has %d bytes, want at least %d (openssl rand -hex 32)", len(token), minSecretBytes)
	}
	if token == "" && !isLoopbackListen(listen) {
		return "", fmt.Errorf("--mcp-listen %s is not a loopback address: every client reaching it would act as this agent; "+
			"give --mcp-token (CAIRN_MCP_TOKEN) or --mcp-token-file, which clients then send as Authorization: Bearer", listen)
	}
	return token, nil
}

// isLoopbackListen says whether a listen address only accepts
// connections from this host: a loopback IP or localhost (an empty host
// listens on every interface).
func isLoopbackListen(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// requireBearer answers 401 (a problem document) to a request without
// Authorization: Bearer token, compared in constant time; token "" lets
// every request through.
func requireBearer(token string, next http.Handler) http.Handler {
	if token == "" {
		return next
	}
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		sum := sha256.Sum256([]byte(got))
		if !ok || subtle.ConstantTimeCompare(sum[:], want[:]) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="cairn mcp"`)
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, `{"type":"about:blank","title":"Unauthorized","status":401,"code":%q,"detail":"this MCP endpoint needs Authorization: Bearer with the token of --mcp-token"}`+"\n", cairn.EUNAUTHORIZED)
			return
		}
		next.ServeHTTP(w, r)
	})
}
