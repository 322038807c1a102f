// Package mcp serves cairn to agents over the Model Context Protocol. It
// reaches the service only through the Go client (package client), so an
// MCP host and an HTTP caller see the same API, prices and errors.
package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/cairn-dev/cairn/client"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxFileBytes bounds the files the upload and fetch tools carry (base64 in
// the tool call): larger files go over HTTP.
const MaxFileBytes = 4 << 20

// Version is reported to MCP clients.
const Version = "1.0.0"

// server holds the client a session's tools call.
type server struct {
	c *client.Client
}

// NewServer returns an MCP server whose tools and resources call cairn
// through c (which carries the agent's API key).
func NewServer(c *client.Client) *sdk.Server {
	s := &server{c: c}
	srv := sdk.NewServer(&sdk.Implementation{Name: "cairn", Version: Version}, &sdk.ServerOptions{
		Instructions: "cairn gives you persistent, versioned memory (by key), file and media storage paid in credits, " +
			"and sanctions screening of blockchain addresses with Merkle proofs. Every tool result says the credits " +
			"it cost (creditsCharged) and the balance left. Read cairn://skill, a short guide (about 6 KB), before anything else; " +
			"cairn://skill/full is the full reference of the HTTP API, for when the guide is not enough.",
	})
	s.addMemoryTools(srv)
	s.addFileTools(srv)
	s.addComplianceTools(srv)
	s.addBillingTools(srv)
	s.addWatchTools(srv)
	s.addResources(srv)
	return srv
}

// Result is what every tool returns: the operation's result with the
// credits it cost.
type Result struct {
	// CreditsCharged is the balance before the call minus the balance after
	// it (refunds included).
	CreditsCharged int64 `json:"creditsCharged"`
	// Balance is the credit balance after the call.
	Balance int64 `json:"balance"`
	Result  any   `json:"result"`
}

// run calls op between two balance reads (free) and wraps its result, or
// turns its error into an MCP tool error with the problem's code and a hint.
func (s *server) run(ctx context.Context, op func(context.Context) (any, error)) (*sdk.CallToolResult, any, error) {
	before, err := s.c.GetBalance(ctx)
	if err != nil {
		return toolError(err, 0), nil, nil
	}
	out, opErr := op(ctx)
	after, err := s.c.GetBalance(ctx)
	if err != nil {
		return toolError(err, 0), nil, nil
	}
	charged := before.CreditBalance - after.CreditBalance
	if opErr != nil {
		return toolError(opErr, charged), nil, nil
	}
	return nil, Result{CreditsCharged: charged, Balance: after.CreditBalance, Result: out}, nil
}

// ToolError is the body of a failed tool call.
type ToolError struct {
	Code           string `json:"code"`
	Status         int    `json:"status,omitempty"`
	Detail         string `json:"detail"`
	Field          string `json:"field,omitempty"`
	RequestID      string `json:"requestId,omitempty"`
	Required       *int64 `json:"required,omitempty"`
	Available      *int64 `json:"available,omitempty"`
	Hint           string `json:"hint"`
	CreditsCharged int64  `json:"creditsCharged"`
}

func toolError(err error, charged int64) *sdk.CallToolResult {
	te := ToolError{Code: "invalid", Detail: err.Error(), CreditsCharged: charged,
		Hint: "Check the arguments against the tool's input schema."}
	var ce *client.Error
	if errors.As(err, &ce) {
		te = ToolError{Code: ce.Code, Status: ce.Status, Detail: ce.Detail, Field: ce.Field, RequestID: ce.RequestID,
			Required: ce.Required, Available: ce.Available, Hint: hint(ce), CreditsCharged: charged}
	} else if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		te.Code, te.Hint = "unavailable", "The call was cancelled or timed out; try again."
	} else if ae := (*argError)(nil); errors.As(err, &ae) {
		te.Status, te.Field = 400, ae.field
		if ae.field != "" {
			te.Hint = "Fix the argument " + ae.field + " (see the tool's input schema) and call again."
		}
	} else {
		te.Code, te.Hint = "unavailable", "The cairn server could not be reached; check --server-url and try again."
	}
	b, _ := json.Marshal(te)
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: string(b)}}, StructuredContent: te}
}

func hint(e *client.Error) string {
	switch e.Status {
	case 400:
		if e.Field != "" {
			return "Fix the argument " + e.Field + " and call again."
		}
		return "Fix the arguments and call again."
	case 401:
		return "The API key is missing or wrong: set CAIRN_API_KEY to the agent's key (POST /v1/auth/agent-register issues one)."
	case 402:
		return fmt.Sprintf("Not enough credits (needs %s, has %s). Top up: send APT to the agent's deposit address "+
			"(the balance tool shows aptosAddress), then POST /v1/billing/agent/deposit with the transaction hash; "+
			"or ask the operator for a grant.", ptr(e.Required), ptr(e.Available))
	case 403:
		return "This agent may not do that (revoked, or an admin-only operation)."
	case 404:
		if e.Code == "expired" {
			return "The memory's time to live passed: its key is free, so remember it again (with a longer expiresIn, none, or pin it)."
		}
		return "No such memory, file or record for this agent: check the key or id (list or search to find it)."
	case 409:
		return "Conflict: the key exists or the state changed; read it again, then retry."
	case 412:
		return "The memory changed since it was read; recall it again and retry."
	case 413:
		return "Too large: send a smaller file or content."
	case 422:
		return "Rejected content (e.g. credentials in shared content): remove them or keep the memory private."
	case 429:
		return "Rate limited: wait and retry."
	}
	return "The server failed; retry later."
}

func ptr(p *int64) string {
	if p == nil {
		return "?"
	}
	return fmt.Sprint(*p)
}

// argError is a tool argument the server would reject too, caught before
// any call.
type argError struct{ msg, field string }

func (e *argError) Error() string { return e.msg }

func badArg(format string, a ...any) error { return &argError{msg: fmt.Sprintf(format, a...)} }

// MemoryRef names a memory by key or by the id of one of its versions.
type MemoryRef struct {
	Key string `json:"key,omitempty" jsonschema:"the memory's key (a slash-separated path); give key or id"`
	ID  string `json:"id,omitempty" jsonschema:"the id of a version of the memory; give key or id"`
}

// findKey returns the latest version of the memory with the key, with its
// content, or a 404 *client.Error (GET /v1/memory/by-key, 1 credit). A
// malformed key is a 400 the server refunds: nothing is charged for it.
func (s *server) findKey(ctx context.Context, key string) (*client.Memory, error) {
	return s.c.GetMemoryByKey(ctx, key)
}

// withID calls op with the id that resolve finds for r.
func (s *server) withID(ctx context.Context, r MemoryRef, op func(id string) (any, error)) (any, error) {
	id, err := s.resolve(ctx, r)
	if err != nil {
		return nil, err
	}
	return op(id)
}

// resolve returns the id of the version a reference names: the id itself,
// or the latest version of the key.
func (s *server) resolve(ctx context.Context, r MemoryRef) (string, error) {
	switch {
	case r.ID != "" && r.Key != "":
		return "", badArg("give key or id, not both")
	case r.ID != "":
		return r.ID, nil
	case r.Key != "":
		h, err := s.findKey(ctx, r.Key)
		if err != nil {
			return "", err
		}
		return h.ID, nil
	}
	return "", badArg("key or id is required")
}

func decodeFile(b64 string) ([]byte, error) {
	if base64.StdEncoding.DecodedLen(len(b64)) > MaxFileBytes+3 {
		return nil, badArg("the file is larger than %d bytes: upload it over HTTP", MaxFileBytes)
	}
	data, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return nil, badArg("contentBase64 is not base64: %v", err)
	}
	if len(data) > MaxFileBytes {
		return nil, badArg("the file is larger than %d bytes: upload it over HTTP", MaxFileBytes)
	}
	return data, nil
}

// readFile reads a stream of at most MaxFileBytes as base64.
func readFile(s *client.Stream) (string, error) {
	defer s.Body.Close()
	data, err := io.ReadAll(io.LimitReader(s.Body, MaxFileBytes+1))
	if err != nil {
		return "", err
	}
	if len(data) > MaxFileBytes {
		return "", badArg("the file is larger than %d bytes: download it over HTTP", MaxFileBytes)
	}
	return base64.StdEncoding.EncodeToString(data), nil
}

const memoryPrefix = "cairn://memory/"

func (s *server) addResources(srv *sdk.Server) {
	skill := func(get func(context.Context, bool) (string, error)) sdk.ResourceHandler {
		return func(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			md, err := get(ctx, true)
			if err != nil {
				return nil, err
			}
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: req.Params.URI, MIMEType: "text/markdown", Text: md}}}, nil
		}
	}
	srv.AddResource(&sdk.Resource{URI: "cairn://skill", Name: "skill", MIMEType: "text/markdown",
		Description: "The short guide to cairn (about 6 KB): register, store, recall, search, files, screening, credits and the common errors."},
		skill(s.c.GetSkill))
	srv.AddResource(&sdk.Resource{URI: "cairn://skill/full", Name: "skill-full", MIMEType: "text/markdown",
		Description: "The full reference of every HTTP route, its price and its errors (large: read the short guide first)."},
		skill(s.c.GetFullSkill))
	srv.AddResourceTemplate(&sdk.ResourceTemplate{URITemplate: "cairn://memory/{+key}", Name: "memory",
		Description: "The latest version of the memory with this key (a read by key: 1 credit).", MIMEType: "application/json"},
		func(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			key, err := url.PathUnescape(strings.TrimPrefix(req.Params.URI, memoryPrefix))
			if err != nil || key == "" || !strings.HasPrefix(req.Params.URI, memoryPrefix) {
				return nil, sdk.ResourceNotFoundError(req.Params.URI)
			}
			m, err := s.findKey(ctx, key)
			if err != nil {
				if client.IsCode(err, "not_found") || client.IsCode(err, "expired") {
					return nil, sdk.ResourceNotFoundError(req.Params.URI)
				}
				return nil, err
			}
			b, err := json.Marshal(m)
			if err != nil {
				return nil, err
			}
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: req.Params.URI, MIMEType: "application/json", Text: string(b)}}}, nil
		})
}
