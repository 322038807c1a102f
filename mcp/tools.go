package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"time"

	"github.com/cairn-dev/cairn/client"
	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// tool registers a tool whose handler runs between two balance reads. Its
// input schema is derived from In; arguments that do not match it are a
// tool error like any other (code invalid, the field, a hint), not the
// SDK's plain text, and cost nothing.
func tool[In any](srv *sdk.Server, s *server, name, desc string, op func(context.Context, In) (any, error)) {
	schema, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("mcp: input schema of %s: %v", name, err))
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		panic(fmt.Sprintf("mcp: input schema of %s: %v", name, err))
	}
	srv.AddTool(&sdk.Tool{Name: name, Description: desc, InputSchema: schema},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var in In
			if err := decodeArgs(req.Params.Arguments, resolved, &in); err != nil {
				return toolError(err, 0), nil
			}
			res, out, _ := s.run(ctx, func(ctx context.Context) (any, error) { return op(ctx, in) })
			if res != nil {
				return res, nil
			}
			b, err := json.Marshal(out)
			if err != nil {
				return nil, err
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(b)}}, StructuredContent: json.RawMessage(b)}, nil
		})
}

// argField finds the argument a schema validation error names.
var argField = regexp.MustCompile(`/properties/([A-Za-z0-9_]+)|missing properties: \["([A-Za-z0-9_]+)"`)

// decodeArgs validates the arguments against the tool's input schema and
// decodes them into in.
func decodeArgs(raw json.RawMessage, schema *jsonschema.Resolved, in any) error {
	args := map[string]any{}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &args); err != nil {
			return badArg("the arguments must be a JSON object: %v", err)
		}
	}
	if err := schema.Validate(args); err != nil {
		e := &argError{msg: "arguments do not match the tool's input schema: " + err.Error()}
		if m := argField.FindStringSubmatch(err.Error()); m != nil {
			e.field = m[1] + m[2]
		}
		return e
	}
	b, err := json.Marshal(args)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, in); err != nil {
		return badArg("arguments: %v", err)
	}
	return nil
}

// vectorKind says what vector search means on the server, from GET
// /v1/memory/vector-spaces: semantic with an embedding model, else lexical.
func (s *server) vectorKind() string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	vs, err := s.c.MemoryVectorSpaces(ctx)
	switch {
	case err != nil:
		return "lexical (shared words) unless the server has an embedding model"
	case vs.DefaultTextSpace == "server":
		for _, sp := range vs.Spaces {
			if sp.Name == "server" && sp.Model != nil {
				return "semantic, the server's embedding model " + *sp.Model + ": similar meaning"
			}
		}
		return "semantic: similar meaning"
	}
	return "lexical on this server, shared words and word pieces, not similar meaning in other words"
}

// RememberArgs are the arguments of remember.
type RememberArgs struct {
	Key        string   `json:"key" jsonschema:"the memory's key: a slash-separated path such as notes/meeting-2026-01-05"`
	Content    string   `json:"content" jsonschema:"the text to store"`
	Type       string   `json:"type,omitempty" jsonschema:"memory type (a-z, 0-9, - and _; default semantic); used on create only"`
	Tags       []string `json:"tags,omitempty" jsonschema:"tags to attach"`
	Importance *float64 `json:"importance,omitempty" jsonschema:"importance from 0 to 1 (default 0.5)"`
	ExpiresIn  string   `json:"expiresIn,omitempty" jsonschema:"time to live such as 30d or 12h; none means the memory never expires"`
	Visibility string   `json:"visibility,omitempty" jsonschema:"private (default) or share"`
}

// Remembered is the result of remember.
type Remembered struct {
	Created bool           `json:"created"`
	Memory  *client.Memory `json:"memory"`
}

// SearchArgs are the arguments of search.
type SearchArgs struct {
	Query string   `json:"query" jsonschema:"what to look for"`
	Mode  string   `json:"mode,omitempty" jsonschema:"key (key names only), fulltext (words of the content), vector (similar text: lexical or semantic, as the tool description says) or hybrid (full text and lexical vectors fused, the default)"`
	Tags  []string `json:"tags,omitempty" jsonschema:"only memories with all these tags (key, fulltext and hybrid modes)"`
	Limit int      `json:"limit,omitempty" jsonschema:"at most this many results, 1 to 100"`
}

// ListArgs are the arguments of list.
type ListArgs struct {
	Type   string `json:"type,omitempty" jsonschema:"only memories of this type"`
	Pinned *bool  `json:"pinned,omitempty" jsonschema:"true: only pinned memories; false: only unpinned ones; absent: both"`
	Limit  int    `json:"limit,omitempty" jsonschema:"page size, 1 to 100 (default 50)"`
	Cursor string `json:"cursor,omitempty" jsonschema:"nextCursor of the previous page"`
}

// PinArgs are the arguments of pin.
type PinArgs struct {
	MemoryRef
	Pinned bool `json:"pinned" jsonschema:"true pins the memory (it never expires), false unpins it"`
}

// RenewArgs are the arguments of renew_ttl.
type RenewArgs struct {
	MemoryRef
	ExpiresIn string `json:"expiresIn" jsonschema:"the new time to live from now, such as 30d"`
}

func (s *server) addMemoryTools(srv *sdk.Server) {
	tool(srv, s, "remember", "Store text under a key: creates the memory (5 credits) or, when the key exists, stores a new version "+
		"of it (5 credits); finding the key costs a read (1 credit). Older versions stay readable (history).",
		func(ctx context.Context, a RememberArgs) (any, error) {
			w := client.MemoryWrite{Key: a.Key, Type: a.Type, Content: a.Content, Importance: a.Importance, ExpiresIn: a.ExpiresIn}
			if len(a.Tags) > 0 || a.Visibility != "" {
				w.Metadata = &client.MemoryMetadata{Tags: a.Tags, Visibility: a.Visibility}
			}
			h, err := s.findKey(ctx, a.Key)
			if client.IsCode(err, "not_found") || client.IsCode(err, "expired") {
				m, err := s.c.CreateMemory(ctx, w, "")
				return Remembered{Created: true, Memory: m}, err
			} else if err != nil {
				return nil, err
			}
			w.Key, w.Type = "", ""
			m, err := s.c.PutMemory(ctx, h.ID, w, "")
			return Remembered{Memory: m}, err
		})
	tool(srv, s, "recall", "Read a memory with its content, by key (its latest version) or by the id of any version (that version); "+
		"1 credit.",
		func(ctx context.Context, r MemoryRef) (any, error) {
			if r.Key != "" && r.ID == "" {
				return s.findKey(ctx, r.Key)
			}
			return s.withID(ctx, r, func(id string) (any, error) { return s.c.GetMemory(ctx, id) })
		})
	tool(srv, s, "search", "Find memories, best first (1 credit): by key name (key), by words of the content (fulltext), by "+
		"similar text (vector: "+s.vectorKind()+") or full text and lexical vectors fused (hybrid, the default).",
		func(ctx context.Context, a SearchArgs) (any, error) {
			switch a.Mode {
			case "key":
				return s.c.SearchMemories(ctx, client.SearchRequest{Query: a.Query, Tags: a.Tags, Limit: a.Limit})
			case "fulltext":
				return s.c.SearchMemories(ctx, client.SearchRequest{ContentQuery: a.Query, Tags: a.Tags, Limit: a.Limit})
			case "vector":
				return s.c.VectorSearchMemories(ctx, client.VectorSearchRequest{Query: a.Query, Tags: a.Tags, Limit: a.Limit})
			case "", "hybrid":
				return s.c.SearchMemories(ctx, client.SearchRequest{ContentQuery: a.Query, Tags: a.Tags, Limit: a.Limit, Mode: "hybrid"})
			}
			return nil, badArg("mode must be key, fulltext, vector or hybrid")
		})
	tool(srv, s, "list", "List the agent's memories, newest first, one page at a time (1 credit per page).",
		func(ctx context.Context, a ListArgs) (any, error) {
			p := client.ListMemoriesParams{Type: a.Type, Limit: a.Limit, Cursor: a.Cursor}
			if a.Pinned != nil {
				p.Pinned = fmt.Sprint(*a.Pinned)
			}
			return s.c.ListMemories(ctx, p)
		})
	tool(srv, s, "history", "List every version of a memory (free; by key adds a read of the key, 1 credit).",
		func(ctx context.Context, r MemoryRef) (any, error) {
			return s.withID(ctx, r, func(id string) (any, error) { return s.c.MemoryHistory(ctx, id) })
		})
	tool(srv, s, "forget", "Delete a memory with all its versions and files (2 credits; by key adds a read, 1 credit).",
		func(ctx context.Context, r MemoryRef) (any, error) {
			return s.withID(ctx, r, func(id string) (any, error) {
				res, err := s.c.DeleteWholeMemory(ctx, id, "")
				if err != nil {
					return nil, err
				}
				return map[string]any{"memoryId": res.MemoryID, "key": res.Key, "versionsDeleted": res.VersionsDeleted}, nil
			})
		})
	tool(srv, s, "pin", "Pin a memory (it never expires) or unpin it (free; by key adds a read of the key, 1 credit).",
		func(ctx context.Context, a PinArgs) (any, error) {
			return s.withID(ctx, a.MemoryRef, func(id string) (any, error) { return s.c.SetMemoryPin(ctx, id, a.Pinned) })
		})
	tool(srv, s, "renew_ttl", "Give a memory a new time to live from now (free; by key adds a read of the key, 1 credit).",
		func(ctx context.Context, a RenewArgs) (any, error) {
			return s.withID(ctx, a.MemoryRef, func(id string) (any, error) {
				res, err := s.c.MemoryTtlAlerts(ctx, client.TTLAlertsRequest{RenewIDs: []string{id}, RenewExpiresIn: a.ExpiresIn})
				if err != nil {
					return nil, err
				}
				if len(res.Renewed) != 1 || !res.Renewed[0].Success {
					msg := "not renewed"
					if len(res.Renewed) == 1 && res.Renewed[0].Error != "" {
						msg = res.Renewed[0].Error
					}
					return nil, &client.Error{Status: 404, Code: "not_found", Detail: msg}
				}
				return res.Renewed[0], nil
			})
		})
}
