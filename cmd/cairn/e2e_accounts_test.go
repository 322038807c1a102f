package main

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

var aptosAddr = regexp.MustCompile(`^0x[0-9a-f]{64}$`)

func TestE2ERegistration(t *testing.T) {
	ts := startServer(t, testConfig(t, t.TempDir()))

	t.Run("OK", func(t *testing.T) {
		r := ts.do(t, "POST", "/v1/auth/agent-register", "", map[string]any{"name": "  scout  "}).must(t, 201)
		for _, k := range []string{"agentId", "developerId"} {
			if !cairn.ValidID(r.str(k)) {
				t.Fatalf("%s = %q", k, r.str(k))
			}
		}
		if r.str("name") != "scout" || r.num("creditBalance") != 100 {
			t.Fatalf("name/balance: %s", r.Body)
		}
		for _, k := range []string{"apiKey", "rotationSecret"} {
			if s := r.str(k); !strings.HasPrefix(s, "sk_live_") || len(s) < len("sk_live_")+32 {
				t.Fatalf("%s = %q", k, s)
			}
		}
		if r.str("apiKey") == r.str("rotationSecret") {
			t.Fatal("key and secret equal")
		}
		di, _ := r.JSON["depositInfo"].(map[string]any)
		if !aptosAddr.MatchString(r.str("aptosAddress")) || di["address"] != r.str("aptosAddress") ||
			di["network"] != "mainnet" || di["note"] == "" {
			t.Fatalf("deposit info: %s", r.Body)
		}
		if toks, _ := di["supportedTokens"].([]any); len(toks) != 1 || toks[0] != "APT" {
			t.Fatalf("supportedTokens: %v", di["supportedTokens"])
		}
	})
	t.Run("GeneratedNameAndDistinctAddresses", func(t *testing.T) {
		a, b := ts.register(t, ""), ts.register(t, "")
		if a.Address == b.Address || a.Key == b.Key || a.DeveloperID == b.DeveloperID {
			t.Fatalf("agents share credentials or addresses: %+v %+v", a, b)
		}
		r := ts.do(t, "GET", "/v1/agents/self", a.Key, nil).must(t, 200)
		if !strings.HasPrefix(r.str("name"), "agent-") || r.str("agentId") != a.ID {
			t.Fatalf("self: %s", r.Body)
		}
	})
	t.Run("KeysStoredOnlyHashed", func(t *testing.T) {
		a := ts.register(t, "hashed")
		got, err := ts.m.store.Agent(context.Background(), a.ID)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(got.KeyHash), a.Key) || len(got.KeyHash) != 32 || len(got.SecretHash) != 32 {
			t.Fatalf("stored key material: %d %d", len(got.KeyHash), len(got.SecretHash))
		}
		if strings.Contains(ts.logs.String(), a.Key) || strings.Contains(ts.logs.String(), a.Secret) {
			t.Fatal("a secret reached the logs")
		}
	})
	t.Run("ErrNameTooLong", func(t *testing.T) {
		ts.do(t, "POST", "/v1/auth/agent-register", "", map[string]any{"name": strings.Repeat("x", 101)}).problem(t, 400, cairn.EINVALID)
	})
	t.Run("ErrBadJSON", func(t *testing.T) {
		ts.do(t, "POST", "/v1/auth/agent-register", "", `{"name":`).problem(t, 400, cairn.EINVALID)
		ts.do(t, "POST", "/v1/auth/agent-register", "", `{"name": 5}`).problem(t, 400, cairn.EINVALID)
		ts.do(t, "POST", "/v1/auth/agent-register", "", `{} {}`).problem(t, 400, cairn.EINVALID)
	})
	t.Run("ErrContentType", func(t *testing.T) {
		ts.do(t, "POST", "/v1/auth/agent-register", "", `name=x`, "Content-Type", "application/x-www-form-urlencoded").
			problem(t, 415, cairn.EUNSUPPORTEDMEDIA)
	})
	t.Run("ErrTooLarge", func(t *testing.T) {
		big := `{"name":"` + strings.Repeat("a", 2<<20) + `"}`
		ts.do(t, "POST", "/v1/auth/agent-register", "", big).problem(t, 413, cairn.ETOOLARGE)
	})
}

func TestE2EAuthFailures(t *testing.T) {
	ts := startServer(t, testConfig(t, t.TempDir()))
	a := ts.register(t, "auth")
	for name, tok := range map[string]string{
		"NoHeader":    "",
		"UnknownKey":  "sk_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
		"NotAKey":     "hello",
		"KeyPlusJunk": a.Key + "x",
		"Secret":      a.Secret,
	} {
		t.Run(name, func(t *testing.T) {
			r := ts.do(t, "GET", "/v1/billing/agent/balance", tok, nil).problem(t, 401, cairn.EUNAUTHORIZED)
			if !strings.HasPrefix(r.Header.Get("WWW-Authenticate"), "Bearer") {
				t.Fatalf("WWW-Authenticate %q", r.Header.Get("WWW-Authenticate"))
			}
		})
	}
	t.Run("OK", func(t *testing.T) {
		r := ts.do(t, "GET", "/v1/billing/agent/balance", a.Key, nil).must(t, 200)
		if r.str("agentId") != a.ID || r.num("creditBalance") != 100 || r.str("aptosAddress") != a.Address {
			t.Fatalf("agent balance: %s", r.Body)
		}
	})
	t.Run("RoutesAndMethods", func(t *testing.T) {
		ts.do(t, "GET", "/v1/nope", "", nil).problem(t, 404, cairn.ENOTFOUND)
		r := ts.do(t, "DELETE", "/v1/billing/pricing", "", nil).problem(t, 405, cairn.EMETHOD)
		if r.Header.Get("Allow") == "" {
			t.Log("no Allow header on 405")
		}
	})
}

func TestE2ERotation(t *testing.T) {
	ts := startServer(t, testConfig(t, t.TempDir()))
	a := ts.register(t, "rotator")

	ts.do(t, "POST", "/v1/agents/self/rotate-key", a.Key, map[string]any{}).problem(t, 400, cairn.EINVALID)
	ts.do(t, "POST", "/v1/agents/self/rotate-key", a.Key, map[string]any{"rotationSecret": "sk_live_wrong"}).problem(t, 401, cairn.EUNAUTHORIZED)
	r := ts.do(t, "POST", "/v1/agents/self/rotate-key", a.Key, map[string]any{"rotationSecret": a.Secret}).must(t, 200)
	newKey, newSecret := r.str("apiKey"), r.str("rotationSecret")
	if r.str("agentId") != a.ID || r.str("agentName") != "rotator" || r.str("message") == "" ||
		!strings.HasPrefix(newKey, "sk_live_") || newKey == a.Key || newSecret == a.Secret {
		t.Fatalf("rotation response: %s", r.Body)
	}
	// The old pair is dead at once; the new pair works.
	ts.do(t, "GET", "/v1/agents/self", a.Key, nil).problem(t, 401, cairn.EUNAUTHORIZED)
	ts.do(t, "GET", "/v1/agents/self", newKey, nil).must(t, 200)
	// Fourth attempt from this IP within 15 minutes: 429, whatever the key.
	r = ts.do(t, "POST", "/v1/agents/self/rotate-key", newKey, map[string]any{"rotationSecret": newSecret}).problem(t, 429, cairn.ERATELIMIT)
	if r.Header.Get("Retry-After") == "" || !strings.Contains(r.Header.Get("RateLimit-Policy"), `"rotations";q=3;w=900`) {
		t.Fatalf("429 headers: %v", r.Header)
	}
	ts.do(t, "GET", "/v1/agents/self", newKey, nil).must(t, 200) // the refused attempt changed nothing

	audit, err := ts.m.store.ListAudit(context.Background(), a.ID, store.AuditFilter{Action: cairn.AuditRotateKey}, "", 10)
	if err != nil || len(audit) != 1 || audit[0].RequestID == "" {
		t.Fatalf("rotation audit: %+v %v", audit, err)
	}
}

func TestE2ERotationOldSecretDead(t *testing.T) {
	ts := startServer(t, testConfig(t, t.TempDir()))
	a := ts.register(t, "")
	r := ts.do(t, "POST", "/v1/agents/self/rotate-key", a.Key, map[string]any{"rotationSecret": a.Secret}).must(t, 200)
	ts.do(t, "POST", "/v1/agents/self/rotate-key", r.str("apiKey"), map[string]any{"rotationSecret": a.Secret}).problem(t, 401, cairn.EUNAUTHORIZED)
}

func TestE2ERevocation(t *testing.T) {
	ts := startServer(t, testConfig(t, t.TempDir()))
	a := ts.register(t, "doomed")
	ts.do(t, "POST", "/v1/admin/agents/"+a.ID+"/revoke", "wrong-token", nil).problem(t, 401, cairn.EUNAUTHORIZED)
	ts.do(t, "POST", "/v1/admin/agents/"+cairn.NewID()+"/revoke", "admin-test-token-0123456789abcdef", nil).problem(t, 404, cairn.ENOTFOUND)
	ts.do(t, "POST", "/v1/admin/agents/not-an-id/revoke", "admin-test-token-0123456789abcdef", nil).problem(t, 404, cairn.ENOTFOUND)
	r := ts.do(t, "POST", "/v1/admin/agents/"+a.ID+"/revoke", "admin-test-token-0123456789abcdef", nil).must(t, 200)
	if r.JSON["revoked"] != true || r.str("agentId") != a.ID {
		t.Fatalf("revoke: %s", r.Body)
	}
	ts.do(t, "GET", "/v1/agents/self", a.Key, nil).problem(t, 403, cairn.EFORBIDDEN)
	ts.do(t, "POST", "/v1/agents/self/rotate-key", a.Key, map[string]any{"rotationSecret": a.Secret}).problem(t, 403, cairn.EFORBIDDEN)
}

func TestE2EAdminDisabled(t *testing.T) {
	cfg := testConfig(t, t.TempDir())
	cfg.AdminToken = ""
	ts := startServer(t, cfg)
	ts.do(t, "PUT", "/v1/admin/pricing", "", map[string]any{"operationCosts": map[string]int{"search": 2}}).problem(t, 403, cairn.EFORBIDDEN)
}
