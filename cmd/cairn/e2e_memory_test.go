package main

import (
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store/postgres/pgtest"
)

// memServer starts the service with rate limits out of the way and returns
// it with an agent topped up to credits.
func memServer(t *testing.T, credits int, setup ...func(*Main)) (*testServer, agent) {
	t.Helper()
	ts := startMemServer(t, setup...)
	return ts, ts.newAgent(t, credits)
}

// startMemServer starts the service with rate limits (registrations
// included) out of the way.
func startMemServer(t *testing.T, setup ...func(*Main)) *testServer {
	t.Helper()
	return startServer(t, memConfig(t), setup...)
}

func memConfig(t *testing.T) Config {
	cfg := testConfig(t, t.TempDir())
	cfg.WriteLimitPerAgent, cfg.RateLimitPerKey, cfg.RegisterLimitPerIP = 100000, 100000, 0
	return cfg
}

// onBothStores runs fn against a memory server (as startMemServer's) on
// each store, whose search differs: the embedded store, searched through
// the in-process bleve index, and PostgreSQL, which answers search itself
// (the subtest is skipped without CAIRN_TEST_POSTGRES_URL, and fails
// without it under CAIRN_REQUIRE_POSTGRES=1).
func onBothStores(t *testing.T, fn func(t *testing.T, ts *testServer)) {
	t.Run("Pebble", func(t *testing.T) { fn(t, startMemServer(t)) })
	t.Run("Postgres", func(t *testing.T) {
		url := pgtest.URL(t)
		cfg := memConfig(t)
		cfg.Store, cfg.PostgresSchema = url, pgtest.Schema(t, url)
		ts := startServer(t, cfg)
		if ts.m.pg == nil {
			t.Fatal("the server does not run on PostgreSQL")
		}
		fn(t, ts)
	})
}

// newAgent registers an agent topped up to credits (apitest.Client.NewAgent).
func (ts *testServer) newAgent(t *testing.T, credits int) agent {
	t.Helper()
	return ts.client().NewAgent(t, credits)
}

// topUp sets the agent's balance to credits.
func (ts *testServer) topUp(t *testing.T, a agent, credits int) {
	t.Helper()
	ts.client().TopUp(t, a, credits)
}

// memUpload posts a multipart body to /v1/memory/upload; file nil leaves
// the file part out.
func (ts *testServer) memUpload(t *testing.T, key string, fields map[string]string, filename string, file []byte) *response {
	t.Helper()
	return (*response)(ts.client().MemUpload(t, key, fields, filename, file))
}

// wantBalance fails unless the agent's balance is want.
func (ts *testServer) wantBalance(t *testing.T, a agent, want int) {
	t.Helper()
	ts.client().WantBalance(t, a, want)
}

func TestMemoryCreateGet(t *testing.T) {
	ts := startMemServer(t)
	// create gives a fresh agent of 1000 credits a memory (5 credits) and
	// returns the agent, the response, the memory's id and the balance.
	create := func(t *testing.T) (agent, *response, string, int) {
		t.Helper()
		a := ts.newAgent(t, 1000)
		r := ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"type": "semantic", "key": "notes/today", "content": "buy milk",
			"importance": 0.8, "metadata": map[string]any{"tags": []string{"home"}, "visibility": "private"}}).must(t, 201)
		return a, r, r.str("id"), 1000 - 5
	}
	t.Run("Create", func(t *testing.T) {
		a, r, _, bal := create(t)
		if r.num("version") != 1 || r.str("blobName") != "memory/semantic/notes/today/v1" || r.num("sizeBytes") != 8 ||
			r.JSON["isCompressed"] != false || r.num("importance") != 0.8 || r.JSON["encryptionProvider"] != nil || r.Header.Get("ETag") != `"1"` {
			t.Fatalf("create: %s", r.Body)
		}
		ts.wantBalance(t, a, bal)
	})
	t.Run("Get", func(t *testing.T) {
		a, _, id, bal := create(t)
		r := ts.do(t, "GET", "/v1/memory/"+id, a.Key, nil).must(t, 200)
		if r.str("content") != "buy milk" || r.JSON["isLatest"] != true || r.str("key") != "notes/today" || r.str("updatedAt") == "" {
			t.Fatalf("get: %s", r.Body)
		}
		bal--
		ts.wantBalance(t, a, bal)
	})
	t.Run("ErrNotFoundIsolation", func(t *testing.T) {
		a, _, id, bal := create(t)
		b := ts.register(t, "other")
		for _, path := range []string{"/v1/memory/" + cairn.NewID(), "/v1/memory/not-an-id"} {
			ts.do(t, "GET", path, a.Key, nil).problem(t, 404, cairn.ENOTFOUND)
			bal-- // 404 is not refunded
		}
		ts.do(t, "GET", "/v1/memory/"+id, b.Key, nil).problem(t, 404, cairn.ENOTFOUND)
		ts.do(t, "PUT", "/v1/memory/"+id, b.Key, map[string]any{"content": "x"}).problem(t, 404, cairn.ENOTFOUND)
		ts.do(t, "DELETE", "/v1/memory/"+id, b.Key, nil).problem(t, 404, cairn.ENOTFOUND)
		ts.do(t, "GET", "/v1/memory/"+id+"/history", b.Key, nil).problem(t, 404, cairn.ENOTFOUND)
		ts.do(t, "PATCH", "/v1/memory/"+id+"/pin", b.Key, nil).problem(t, 404, cairn.ENOTFOUND)
		ts.wantBalance(t, a, bal)
		ts.wantBalance(t, b, 100-1-5-2)
	})
	t.Run("ErrDuplicateKeyCharged", func(t *testing.T) {
		a, _, id, bal := create(t)
		b := ts.register(t, "other")
		ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "notes/today", "content": "again"}).problem(t, 409, cairn.ECONFLICT)
		bal -= 5
		ts.wantBalance(t, a, bal)
		ts.do(t, "POST", "/v1/memory", b.Key, map[string]any{"key": "notes/today", "content": "b's own"}).must(t, 201)
		if r := ts.do(t, "GET", "/v1/memory/"+id, a.Key, nil).must(t, 200); r.str("content") != "buy milk" {
			t.Fatalf("another agent's write changed the content: %s", r.Body)
		}
		ts.wantBalance(t, a, bal-1)
	})
	t.Run("ErrInvalidRefunded", func(t *testing.T) {
		a, bal := ts.newAgent(t, 1000), 1000
		for _, body := range []any{
			map[string]any{"key": "", "content": "x"},
			map[string]any{"key": "a//b", "content": "x"},
			map[string]any{"key": "a/../b", "content": "x"},
			map[string]any{"key": "k"},
			map[string]any{"key": "k", "content": "x", "importance": 1.5},
			map[string]any{"key": "k", "content": "x", "expiresIn": "10y"},
			map[string]any{"key": "k", "content": "x", "metadata": map[string]any{"visibility": "public"}},
			map[string]any{"key": "k", "content": "!!", "contentEncoding": "base64"},
			map[string]any{"key": "k", "content": "x", "type": "Bad Type"},
			`{"key": "k", "content": 3}`,
		} {
			ts.do(t, "POST", "/v1/memory", a.Key, body).problem(t, 400, cairn.EINVALID)
		}
		ts.wantBalance(t, a, bal)
	})
	t.Run("CredentialsInSharedContentRefunded", func(t *testing.T) {
		a, bal := ts.newAgent(t, 1000), 1000
		for _, secret := range []string{
			"AKIAZ3MSJV4WTGKEX7PQ",
			"-----BEGIN RSA PRIVATE KEY-----\n" + strings.Repeat("MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun", 4) + "\n-----END RSA PRIVATE KEY-----",
			"ghp_4Jc0rYsWq8kZ1xLmN5vB7tR2yU9iO3pA6sD0",
		} {
			r := ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "shared/creds", "content": "use " + secret,
				"metadata": map[string]any{"visibility": "share"}}).problem(t, 422, cairn.EUNPROCESSABLE)
			if strings.Contains(string(r.Body), secret) {
				t.Fatalf("the problem echoes the secret: %s", r.Body)
			}
		}
		ts.wantBalance(t, a, bal)
		// Private content, and ordinary shared text, are accepted.
		ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "private/creds", "content": "AKIAZ3MSJV4WTGKEX7PQ"}).must(t, 201)
		ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "shared/plain", "content": "The meeting moved to Thursday.",
			"metadata": map[string]any{"visibility": "share"}}).must(t, 201)
		bal -= 10
		ts.wantBalance(t, a, bal)
	})
	t.Run("BlobNamesAndEncryption", func(t *testing.T) {
		a := ts.newAgent(t, 1000)
		r := ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"type": "file", "key": "docs/plan", "content": "c2VjcmV0",
			"contentEncoding": "base64", "blobFilename": "plan", "blobExtension": ".enc", "encryptionProvider": "aes-256-gcm",
			"encryptionMeta": map[string]any{"iv": "aXY=", "tag": "dGFn"}, "metadata": map[string]any{"visibility": "share"}}).must(t, 201)
		if r.str("blobName") != "memory/file/docs/plan/plan_v1.enc" || r.str("encryptionProvider") != "aes-256-gcm" {
			t.Fatalf("custom blob: %s", r.Body)
		}
		g := ts.do(t, "GET", "/v1/memory/"+r.str("id"), a.Key, nil).must(t, 200)
		meta, _ := g.JSON["encryptionMeta"].(map[string]any)
		if g.str("content") != "c2VjcmV0" || g.str("contentEncoding") != "base64" || meta["iv"] != "aXY=" || meta["tag"] != "dGFn" {
			t.Fatalf("encrypted get: %s", g.Body)
		}
	})
	t.Run("Compression", func(t *testing.T) {
		a := ts.newAgent(t, 1000)
		text := strings.Repeat("the quick brown fox jumps over the lazy dog. ", 200)
		r := ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "big/text", "content": text}).must(t, 201)
		// Compression is transparent (spec 2.1): sizeBytes is the content's
		// size, storedBytes the compressed blob's.
		if r.JSON["isCompressed"] != true || r.num("sizeBytes") != float64(len(text)) || r.num("storedBytes") >= float64(len(text)) {
			t.Fatalf("sizes of a compressed memory: %s", r.Body)
		}
		if g := ts.do(t, "GET", "/v1/memory/"+r.str("id"), a.Key, nil).must(t, 200); g.str("content") != text || g.JSON["isCompressed"] != true {
			t.Fatalf("decompressed content differs")
		}
	})
}
