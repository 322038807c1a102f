package mcp_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/client"
	"github.com/cairn-dev/cairn/mcp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpSession is an MCP client session connected in process to the MCP
// server, which calls a real cairn server through the Go client. Its
// helpers report to the test that started it (a subtest starts its own).
type mcpSession struct {
	t  *testing.T
	cs *sdk.ClientSession
	c  *client.Client // the same agent, for checking balances and state
}

func startMCP(t *testing.T, ts *apitest.Server, key string) *mcpSession {
	t.Helper()
	ctx := context.Background()
	c := client.New(ts.URL, key)
	st, ct := sdk.NewInMemoryTransports()
	ss, err := mcp.NewServer(c).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test-agent", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close(); _ = ss.Wait() })
	return &mcpSession{t: t, cs: cs, c: c}
}

// toolCall is a decoded tool result.
type toolCall struct {
	isError bool
	body    map[string]any // the structured content
	text    string
}

func (tc toolCall) charged() int64 { n, _ := tc.body["creditsCharged"].(float64); return int64(n) }

func (tc toolCall) result() map[string]any { m, _ := tc.body["result"].(map[string]any); return m }

func (s *mcpSession) balance() int64 {
	s.t.Helper()
	b, err := s.c.GetBalance(context.Background())
	if err != nil {
		s.t.Fatal(err)
	}
	return b.CreditBalance
}

// call calls a tool and checks that the credits it reports are what the
// balance lost.
func (s *mcpSession) call(name string, args map[string]any) toolCall {
	s.t.Helper()
	before := s.balance()
	res, err := s.cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		s.t.Fatalf("%s: protocol error %v", name, err)
	}
	tc := toolCall{isError: res.IsError}
	if len(res.Content) > 0 {
		tc.text = res.Content[0].(*sdk.TextContent).Text
	}
	tc.body, _ = res.StructuredContent.(map[string]any)
	if tc.body == nil && tc.isError {
		return tc // rejected by the input schema before the handler ran
	}
	if tc.body == nil {
		s.t.Fatalf("%s: no structured content: %s", name, tc.text)
	}
	if spent := before - s.balance(); spent != tc.charged() {
		s.t.Fatalf("%s: reports %d credits charged, the balance lost %d", name, tc.charged(), spent)
	}
	return tc
}

func (s *mcpSession) ok(name string, args map[string]any, credits int64) toolCall {
	s.t.Helper()
	tc := s.call(name, args)
	if tc.isError {
		s.t.Fatalf("%s(%v): tool error %s", name, args, tc.text)
	}
	if tc.charged() != credits {
		s.t.Fatalf("%s: charged %d, want %d", name, tc.charged(), credits)
	}
	return tc
}

// fails calls a tool that must fail with the problem code; code "schema"
// means the input schema refused the arguments: a tool error with code
// invalid like any other, free.
func (s *mcpSession) fails(name string, args map[string]any, code string) toolCall {
	s.t.Helper()
	tc := s.call(name, args)
	if !tc.isError {
		s.t.Fatalf("%s(%v) succeeded: %s", name, args, tc.text)
	}
	if code == "schema" {
		if tc.body["code"] != "invalid" || !strings.Contains(tc.text, "input schema") || tc.charged() != 0 || tc.body["hint"] == "" {
			s.t.Fatalf("%s: want an input schema error as a problem, got %s", name, tc.text)
		}
		return tc
	}
	if tc.body["code"] != code || tc.body["hint"] == "" {
		s.t.Fatalf("%s(%v): error %s, want code %s with a hint", name, args, tc.text, code)
	}
	return tc
}

// unknownID is a well-formed id that names nothing.
const unknownID = "01a219a8-685d-705e-be32-878cf5140e3d"

var mcpTools = []string{"alerts", "balance", "deposit", "fetch_file", "forget", "history", "list", "media_delete", "media_get", "media_list", "media_renew", "media_upload",
	"merkle_proof", "pin", "pricing", "recall", "remember", "renew_ttl", "report_address", "screen_addresses", "search", "unwatch_addresses", "upload_file",
	"watch_addresses", "watchlists", "webhook_create", "webhook_deliveries", "webhook_list"}

func TestE2EMCPTools(t *testing.T) {
	ts := apitest.NewServer(t, apitest.SanctionsLists(t))
	// session connects a fresh established agent with 500 credits: each
	// subtest has its own.
	session := func(t *testing.T) *mcpSession {
		t.Helper()
		a := ts.RegisterEstablished(t)
		ts.Do(t, "POST", "/v1/admin/credits", apitest.AdminToken, map[string]any{"developerId": a.DeveloperID, "amount": 400, "reason": "mcp"}).Must(t, 200)
		return startMCP(t, ts, a.Key)
	}
	s := session(t)
	ctx := context.Background()

	lt, err := s.cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range lt.Tools {
		names = append(names, tl.Name)
		if len(tl.Description) < 20 || tl.InputSchema == nil {
			t.Errorf("tool %s lacks a description or schema", tl.Name)
		}
		// Without --embedder-url vector search is lexical, and the tool says so.
		if tl.Name == "search" && (!strings.Contains(tl.Description, "lexical on this server") || strings.Contains(tl.Description, "similar meaning (vector)")) {
			t.Errorf("search tool description: %s", tl.Description)
		}
	}
	sort.Strings(names)
	if strings.Join(names, ",") != strings.Join(mcpTools, ",") {
		t.Fatalf("tools %v, want %v", names, mcpTools)
	}

	t.Run("Memory", func(t *testing.T) {
		s := session(t)
		r := s.ok("remember", map[string]any{"key": "facts/sky", "content": "the sky is blue", "tags": []string{"nature"}}, 6)
		if r.result()["created"] != true {
			t.Fatalf("remember: %v", r.body)
		}
		if f := s.fails("remember", map[string]any{"key": "facts/x"}, "schema"); f.body["field"] != "content" {
			t.Fatalf("missing content: %s", f.text)
		}
		// A malformed key costs nothing: the key read is refused (400, refunded) before any write.
		if f := s.fails("remember", map[string]any{"key": "/bad//key", "content": "x"}, "invalid"); f.charged() != 0 {
			t.Fatalf("remember with a malformed key charged %d", f.charged())
		}
		got := s.ok("recall", map[string]any{"key": "facts/sky"}, 1).result()
		if got["content"] != "the sky is blue" {
			t.Fatalf("recall: %v", got)
		}
		s.ok("recall", map[string]any{"id": got["id"]}, 1)
		s.fails("recall", map[string]any{}, "invalid")
		s.fails("recall", map[string]any{"key": "facts/none"}, "not_found")
		for _, mode := range []string{"key", "fulltext", "vector", "hybrid"} {
			q := "sky"
			if mode == "key" {
				q = "facts/"
			}
			res := s.ok("search", map[string]any{"query": q, "mode": mode}, 1).result()
			if res["count"].(float64) < 1 {
				t.Fatalf("search %s found nothing: %v", mode, res)
			}
		}
		s.fails("search", map[string]any{"query": "sky", "mode": "telepathy"}, "invalid")
		if l := s.ok("list", map[string]any{"limit": 10}, 1).result(); len(l["memories"].([]any)) != 1 {
			t.Fatalf("list: %v", l)
		}
		s.fails("list", map[string]any{"limit": 1000}, "invalid")
		if l := s.ok("list", map[string]any{"pinned": true}, 1).result(); len(l["memories"].([]any)) != 0 {
			t.Fatalf("list pinned: %v", l)
		}
		if f := s.fails("list", map[string]any{"pinned": "yes"}, "schema"); f.body["field"] != "pinned" {
			t.Fatalf("list pinned yes: %s", f.text)
		}
		if p := s.ok("pin", map[string]any{"key": "facts/sky", "pinned": true}, 1).result(); p["pinned"] != true {
			t.Fatalf("pin: %v", p)
		}
		if p := s.ok("pin", map[string]any{"id": got["id"], "pinned": false}, 0).result(); p["pinned"] != false {
			t.Fatalf("unpin: %v", p)
		}
		s.fails("pin", map[string]any{"id": unknownID, "pinned": true}, "not_found")
		if r := s.ok("renew_ttl", map[string]any{"key": "facts/sky", "expiresIn": "7d"}, 1).result(); r["success"] != true {
			t.Fatalf("renew: %v", r)
		}
		s.fails("renew_ttl", map[string]any{"key": "facts/sky", "expiresIn": "forever"}, "invalid")
		s.fails("history", map[string]any{"id": unknownID}, "not_found")
		s.fails("forget", map[string]any{"key": "facts/none"}, "not_found")
	})

	t.Run("Files", func(t *testing.T) {
		s := session(t)
		data := []byte{0xff, 0x00, 'c', 'a', 'i', 'r', 'n'}
		up := s.ok("upload_file", map[string]any{"key": "files/blob", "filename": "blob.bin",
			"contentBase64": base64.StdEncoding.EncodeToString(data)}, 5).result()
		if up["sizeBytes"] == nil {
			t.Fatalf("upload: %v", up)
		}
		s.fails("upload_file", map[string]any{"key": "files/x", "filename": "x", "contentBase64": "%%%"}, "invalid")
		f := s.ok("fetch_file", map[string]any{"key": "files/blob"}, 2).result()
		if f["contentBase64"] != base64.StdEncoding.EncodeToString(data) {
			t.Fatalf("fetch: %v", f)
		}
		s.fails("fetch_file", map[string]any{"id": unknownID}, "not_found")

		m := s.call("media_upload", map[string]any{"filename": "note.txt", "mimeType": "text/plain", "title": "note",
			"contentBase64": base64.StdEncoding.EncodeToString([]byte("hello media"))})
		if m.isError || m.result()["sizeBytes"] != float64(11) {
			t.Fatalf("media upload: %s", m.text)
		}
		s.fails("media_upload", map[string]any{"filename": "n", "contentBase64": "!"}, "invalid")
		if l := s.ok("media_list", map[string]any{}, 0).result(); len(l["media"].([]any)) != 1 {
			t.Fatalf("media list: %v", l)
		}
		s.fails("media_list", map[string]any{"category": "smell"}, "invalid")
		id := m.result()["id"]
		s.ok("media_get", map[string]any{"id": id}, 0)
		g := s.ok("media_get", map[string]any{"id": id, "includeContent": true}, 1).result()
		if g["contentBase64"] != base64.StdEncoding.EncodeToString([]byte("hello media")) {
			t.Fatalf("media get: %v", g)
		}
		s.fails("media_get", map[string]any{"id": unknownID}, "not_found")
		if r := s.ok("media_renew", map[string]any{"id": id, "expiresIn": "365d"}, 0).result(); r["expiresAt"] == nil {
			t.Fatalf("media renew: %v", r)
		}
		s.fails("media_renew", map[string]any{"id": id, "expiresIn": "forever"}, "invalid")
		if d := s.ok("media_delete", map[string]any{"id": id}, 2).result(); d["deleted"] != true {
			t.Fatalf("media delete: %v", d)
		}
		s.fails("media_get", map[string]any{"id": id}, "not_found")
	})

	t.Run("Compliance", func(t *testing.T) {
		s := session(t)
		sc := s.ok("screen_addresses", map[string]any{"addresses": []map[string]any{{"address": apitest.Tornado, "chain": "ethereum"}}}, 0).result()
		if sc["results"].([]any)[0].(map[string]any)["status"] != "sanctioned" {
			t.Fatalf("screen: %v", sc)
		}
		s.fails("screen_addresses", map[string]any{"addresses": []map[string]any{{"address": apitest.Tornado, "chain": "narnia"}}}, "invalid")
		if p := s.ok("merkle_proof", map[string]any{"address": apitest.Tornado, "chain": "ethereum"}, 0).result(); p["sanctioned"] != true {
			t.Fatalf("proof: %v", p)
		}
		s.fails("merkle_proof", map[string]any{"address": apitest.Tornado, "chain": "narnia"}, "invalid")
		// An unlisted address is proven absent, with its gap against the
		// exclusion root.
		clear := s.ok("merkle_proof", map[string]any{"address": "0x1111111111111111111111111111111111111111", "chain": "ethereum"}, 0).result()
		if e, ok := clear["exclusionProof"].(map[string]any); !ok || clear["listed"] != false || e["root"] != clear["exclusionRoot"] {
			t.Fatalf("clear proof: %v", clear)
		} else {
			apitest.VerifyExclusion(t, e, "evm", "0x1111111111111111111111111111111111111111", apitest.HexBytes32(t, clear["exclusionRoot"].(string)))
		}
		rep := s.call("report_address", map[string]any{"address": "0x00000000000000000000000000000000000000bb", "chain": "ethereum",
			"category": "scam", "reason": "phishing site drained wallets"})
		if rep.isError || rep.result()["reportId"] == "" {
			t.Fatalf("report: %s", rep.text)
		}
		s.fails("report_address", map[string]any{"address": apitest.Tornado, "chain": "ethereum", "category": "rudeness", "reason": "x"}, "invalid")
	})

	t.Run("Watchlists", func(t *testing.T) {
		s := session(t)
		w := s.ok("watch_addresses", map[string]any{"name": "hot", "addresses": []map[string]any{{"address": "0x00000000000000000000000000000000000000c1", "chain": "ethereum"},
			{"address": "nope", "chain": "ethereum"}}}, 0).result()
		id := w["watchlist"].(map[string]any)["id"].(string)
		if w["added"] != 1.0 || len(w["rejected"].([]any)) != 1 {
			t.Fatalf("watch: %v", w)
		}
		if more := s.ok("watch_addresses", map[string]any{"watchlist": id, "addresses": []map[string]any{{"address": "0x00000000000000000000000000000000000000c2", "chain": "eth"}}}, 0).result(); more["watchlist"].(map[string]any)["addressCount"] != 2.0 {
			t.Fatalf("add: %v", more)
		}
		if un := s.ok("unwatch_addresses", map[string]any{"watchlist": id, "addresses": []map[string]any{{"address": "0x00000000000000000000000000000000000000c2", "chain": "ethereum"}}}, 0).result(); un["removed"] != 1.0 {
			t.Fatalf("unwatch: %v", un)
		}
		s.fails("unwatch_addresses", map[string]any{"watchlist": unknownID, "addresses": []map[string]any{}}, "not_found")
		if ls := s.ok("watchlists", map[string]any{}, 0).result(); len(ls["watchlists"].([]any)) != 1 {
			t.Fatalf("watchlists: %v", ls)
		}
		if al := s.ok("alerts", map[string]any{}, 0).result(); len(al["alerts"].([]any)) != 0 {
			t.Fatalf("alerts: %v", al)
		}
		h := s.ok("webhook_create", map[string]any{"url": "https://hooks.example.com/cairn", "events": []string{"watchlist.hit"}}, 0).result()
		if h["secret"] == nil {
			t.Fatalf("webhook: %v", h)
		}
		s.fails("webhook_create", map[string]any{"url": "https://hooks.example.com/cairn", "events": []string{"nope"}}, "invalid")
		if l := s.ok("webhook_list", map[string]any{}, 0).result(); len(l["webhooks"].([]any)) != 1 {
			t.Fatalf("webhooks: %v", l)
		}
		if d := s.ok("webhook_deliveries", map[string]any{"webhook": h["id"]}, 0).result(); len(d["deliveries"].([]any)) != 0 {
			t.Fatalf("deliveries: %v", d)
		}
	})

	t.Run("Billing", func(t *testing.T) {
		s := session(t)
		b := s.ok("balance", map[string]any{}, 0)
		if int64(b.result()["creditBalance"].(float64)) != s.balance() || b.result()["aptosAddress"] == nil {
			t.Fatalf("balance: %v", b.body)
		}
		if p := s.ok("pricing", map[string]any{}, 0).result(); p["operationCosts"].(map[string]any)["memory.write"] != float64(5) {
			t.Fatalf("pricing: %v", p)
		}
		s.fails("balance", map[string]any{"unexpected": 1}, "schema")
		s.fails("deposit", map[string]any{"txHash": "not-a-hash"}, "invalid")
		ts.Do(t, "PUT", "/v1/admin/pricing", apitest.AdminToken, map[string]any{"operationCosts": map[string]any{"memory.write": 1000000}}).Must(t, 200)
		defer func() {
			ts.Do(t, "PUT", "/v1/admin/pricing", apitest.AdminToken, map[string]any{"operationCosts": map[string]any{"memory.write": 5}}).Must(t, 200)
		}()
		e := s.fails("remember", map[string]any{"key": "facts/costly", "content": "x"}, "insufficient_credits")
		if e.body["required"] != float64(1000000) || !strings.Contains(e.body["hint"].(string), "/v1/billing/agent/deposit") || e.charged() != 1 {
			t.Fatalf("402: %v", e.body)
		}
	})

	t.Run("Resources", func(t *testing.T) {
		s := session(t)
		s.ok("remember", map[string]any{"key": "facts/sky", "content": "the sky is blue"}, 6)
		// cairn://skill is the short guide, which the instructions point at;
		// cairn://skill/full the full reference.
		sk, err := s.cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "cairn://skill"})
		if err != nil || !strings.Contains(sk.Contents[0].Text, "/v1/memory") || len(sk.Contents[0].Text) > 10<<10 {
			t.Fatalf("skill: %v (%d bytes)", err, len(sk.Contents[0].Text))
		}
		full, err := s.cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "cairn://skill/full"})
		if err != nil || !strings.Contains(full.Contents[0].Text, "### GET /v1/memory/by-key") {
			t.Fatalf("full skill: %v", err)
		}
		if ins := s.cs.InitializeResult().Instructions; !strings.Contains(ins, "cairn://skill, a short guide") {
			t.Fatalf("instructions: %q", ins)
		}
		r, err := s.cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "cairn://memory/facts/sky"})
		if err != nil {
			t.Fatal(err)
		}
		var m client.Memory
		if err := json.Unmarshal([]byte(r.Contents[0].Text), &m); err != nil || m.Content == nil || *m.Content != "the sky is blue" {
			t.Fatalf("memory resource: %s %v", r.Contents[0].Text, err)
		}
		if _, err := s.cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "cairn://memory/facts/none"}); err == nil {
			t.Fatal("an unknown key was read")
		}
		tpl, err := s.cs.ListResourceTemplates(ctx, nil)
		if err != nil || len(tpl.ResourceTemplates) != 1 || !strings.HasPrefix(tpl.ResourceTemplates[0].URITemplate, "cairn://memory/") {
			t.Fatalf("templates: %v %v", tpl, err)
		}
	})
}

// TestE2EMCPAgentSession is one scripted agent session: three notes, a
// search, an update, its history, and forgetting one.
func TestE2EMCPAgentSession(t *testing.T) {
	ts := apitest.NewServer(t)
	a := ts.Register(t, "")
	s := startMCP(t, ts, a.Key)
	start := s.balance()
	notes := map[string]string{
		"notes/standup":   "standup moved to ten o'clock on mondays",
		"notes/deploy":    "deploy the billing service after the migration",
		"notes/groceries": "buy oat milk and coffee beans",
	}
	for k, v := range notes {
		if r := s.ok("remember", map[string]any{"key": k, "content": v}, 6).result(); r["created"] != true {
			t.Fatalf("remember %s: %v", k, r)
		}
	}
	hits := s.ok("search", map[string]any{"query": "billing migration", "mode": "fulltext"}, 1).result()["results"].([]any)
	if len(hits) != 1 || hits[0].(map[string]any)["key"] != "notes/deploy" {
		t.Fatalf("search: %v", hits)
	}
	up := s.ok("remember", map[string]any{"key": "notes/deploy", "content": "deploy the billing service on friday"}, 6).result()
	if up["created"] != false || up["memory"].(map[string]any)["version"] != float64(2) {
		t.Fatalf("update: %v", up)
	}
	h := s.ok("history", map[string]any{"key": "notes/deploy"}, 1).result()
	if h["totalVersions"] != float64(2) {
		t.Fatalf("history: %v", h)
	}
	if got := s.ok("recall", map[string]any{"key": "notes/deploy"}, 1).result(); got["content"] != "deploy the billing service on friday" {
		t.Fatalf("recall after update: %v", got)
	}
	f := s.ok("forget", map[string]any{"key": "notes/groceries"}, 3).result()
	if f["versionsDeleted"] != float64(1) {
		t.Fatalf("forget: %v", f)
	}
	s.fails("recall", map[string]any{"key": "notes/groceries"}, "not_found")
	if l := s.ok("list", map[string]any{}, 1).result(); len(l["memories"].([]any)) != 2 {
		t.Fatalf("after forget: %v", l)
	}
	// 3 creates (6) + search (1) + update (6) + history (1) + recall (1) + forget (3) + failed recall (1) + list (1).
	if spent := start - s.balance(); spent != 18+1+6+1+1+3+1+1 {
		t.Fatalf("the session cost %d credits", spent)
	}
}
