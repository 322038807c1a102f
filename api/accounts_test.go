package api_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/internal/wiring"
)

var aptosAddr = regexp.MustCompile(`^0x[0-9a-f]{64}$`)

func TestE2ERegistration(t *testing.T) {
	ts := apitest.NewServer(t)

	t.Run("OK", func(t *testing.T) {
		r := ts.Do(t, "POST", "/v1/auth/agent-register", "", map[string]any{"name": "  scout  "}).Must(t, 201)
		for _, k := range []string{"agentId", "developerId"} {
			if !cairn.ValidID(r.Str(k)) {
				t.Fatalf("%s = %q", k, r.Str(k))
			}
		}
		if r.Str("name") != "scout" || r.Num("creditBalance") != 100 {
			t.Fatalf("name/balance: %s", r.Body)
		}
		for _, k := range []string{"apiKey", "rotationSecret"} {
			if s := r.Str(k); !strings.HasPrefix(s, "sk_live_") || len(s) < len("sk_live_")+32 {
				t.Fatalf("%s = %q", k, s)
			}
		}
		if r.Str("apiKey") == r.Str("rotationSecret") {
			t.Fatal("key and secret equal")
		}
		di, _ := r.JSON["depositInfo"].(map[string]any)
		if !aptosAddr.MatchString(r.Str("aptosAddress")) || di["address"] != r.Str("aptosAddress") ||
			di["network"] != "mainnet" || di["note"] == "" {
			t.Fatalf("deposit info: %s", r.Body)
		}
		if toks, _ := di["supportedTokens"].([]any); len(toks) != 1 || toks[0] != "APT" {
			t.Fatalf("supportedTokens: %v", di["supportedTokens"])
		}
	})
	t.Run("GeneratedNameAndDistinctAddresses", func(t *testing.T) {
		a, b := ts.Register(t, ""), ts.Register(t, "")
		if a.Address == b.Address || a.Key == b.Key || a.DeveloperID == b.DeveloperID {
			t.Fatalf("agents share credentials or addresses: %+v %+v", a, b)
		}
		r := ts.Do(t, "GET", "/v1/agents/self", a.Key, nil).Must(t, 200)
		if !strings.HasPrefix(r.Str("name"), "agent-") || r.Str("agentId") != a.ID {
			t.Fatalf("self: %s", r.Body)
		}
	})
	t.Run("KeysStoredOnlyHashed", func(t *testing.T) {
		a := ts.Register(t, "hashed")
		got, err := ts.Store.Agent(context.Background(), a.ID)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(got.KeyHash), a.Key) || len(got.KeyHash) != 32 || len(got.SecretHash) != 32 {
			t.Fatalf("stored key material: %d %d", len(got.KeyHash), len(got.SecretHash))
		}
		if strings.Contains(ts.Logs.String(), a.Key) || strings.Contains(ts.Logs.String(), a.Secret) {
			t.Fatal("a secret reached the logs")
		}
	})
	t.Run("ErrNameTooLong", func(t *testing.T) {
		ts.Do(t, "POST", "/v1/auth/agent-register", "", map[string]any{"name": strings.Repeat("x", 101)}).Problem(t, 400, cairn.EINVALID)
	})
	t.Run("ErrBadJSON", func(t *testing.T) {
		ts.Do(t, "POST", "/v1/auth/agent-register", "", `{"name":`).Problem(t, 400, cairn.EINVALID)
		ts.Do(t, "POST", "/v1/auth/agent-register", "", `{"name": 5}`).Problem(t, 400, cairn.EINVALID)
		ts.Do(t, "POST", "/v1/auth/agent-register", "", `{} {}`).Problem(t, 400, cairn.EINVALID)
	})
	t.Run("ErrContentType", func(t *testing.T) {
		ts.Do(t, "POST", "/v1/auth/agent-register", "", `name=x`, "Content-Type", "application/x-www-form-urlencoded").
			Problem(t, 415, cairn.EUNSUPPORTEDMEDIA)
	})
	t.Run("ErrTooLarge", func(t *testing.T) {
		big := `{"name":"` + strings.Repeat("a", 2<<20) + `"}`
		ts.Do(t, "POST", "/v1/auth/agent-register", "", big).Problem(t, 413, cairn.ETOOLARGE)
	})
}

func TestE2EAuthFailures(t *testing.T) {
	ts := apitest.NewServer(t)
	a := ts.Register(t, "auth")
	for name, tok := range map[string]string{
		"NoHeader":    "",
		"UnknownKey":  "sk_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
		"NotAKey":     "hello",
		"KeyPlusJunk": a.Key + "x",
		"Secret":      a.Secret,
	} {
		t.Run(name, func(t *testing.T) {
			r := ts.Do(t, "GET", "/v1/billing/agent/balance", tok, nil).Problem(t, 401, cairn.EUNAUTHORIZED)
			if !strings.HasPrefix(r.Header.Get("WWW-Authenticate"), "Bearer") {
				t.Fatalf("WWW-Authenticate %q", r.Header.Get("WWW-Authenticate"))
			}
		})
	}
	t.Run("OK", func(t *testing.T) {
		r := ts.Do(t, "GET", "/v1/billing/agent/balance", a.Key, nil).Must(t, 200)
		if r.Str("agentId") != a.ID || r.Num("creditBalance") != 100 || r.Str("aptosAddress") != a.Address {
			t.Fatalf("agent balance: %s", r.Body)
		}
	})
	t.Run("RoutesAndMethods", func(t *testing.T) {
		ts.Do(t, "GET", "/v1/nope", "", nil).Problem(t, 404, cairn.ENOTFOUND)
		r := ts.Do(t, "DELETE", "/v1/billing/pricing", "", nil).Problem(t, 405, cairn.EMETHOD)
		if r.Header.Get("Allow") == "" {
			t.Log("no Allow header on 405")
		}
	})
}

func TestE2ERotation(t *testing.T) {
	ts := apitest.NewServer(t)
	a := ts.Register(t, "rotator")

	ts.Do(t, "POST", "/v1/agents/self/rotate-key", a.Key, map[string]any{}).Problem(t, 400, cairn.EINVALID)
	ts.Do(t, "POST", "/v1/agents/self/rotate-key", a.Key, map[string]any{"rotationSecret": "sk_live_wrong"}).Problem(t, 401, cairn.EUNAUTHORIZED)
	r := ts.Do(t, "POST", "/v1/agents/self/rotate-key", a.Key, map[string]any{"rotationSecret": a.Secret}).Must(t, 200)
	newKey, newSecret := r.Str("apiKey"), r.Str("rotationSecret")
	if r.Str("agentId") != a.ID || r.Str("agentName") != "rotator" || r.Str("message") == "" ||
		!strings.HasPrefix(newKey, "sk_live_") || newKey == a.Key || newSecret == a.Secret {
		t.Fatalf("rotation response: %s", r.Body)
	}
	// The old pair is dead at once; the new pair works.
	ts.Do(t, "GET", "/v1/agents/self", a.Key, nil).Problem(t, 401, cairn.EUNAUTHORIZED)
	ts.Do(t, "GET", "/v1/agents/self", newKey, nil).Must(t, 200)
	// Fourth attempt from this IP within 15 minutes: 429, whatever the key.
	r = ts.Do(t, "POST", "/v1/agents/self/rotate-key", newKey, map[string]any{"rotationSecret": newSecret}).Problem(t, 429, cairn.ERATELIMIT)
	if r.Header.Get("Retry-After") == "" || !strings.Contains(r.Header.Get("RateLimit-Policy"), `"rotations";q=3;w=900`) {
		t.Fatalf("429 headers: %v", r.Header)
	}
	ts.Do(t, "GET", "/v1/agents/self", newKey, nil).Must(t, 200) // the refused attempt changed nothing

	audit, err := ts.Store.ListAudit(context.Background(), a.ID, cairn.AuditFilter{Action: cairn.AuditRotateKey}, "", 10)
	if err != nil || len(audit) != 1 || audit[0].RequestID == "" {
		t.Fatalf("rotation audit: %+v %v", audit, err)
	}
}

func TestE2ERotationOldSecretDead(t *testing.T) {
	ts := apitest.NewServer(t)
	a := ts.Register(t, "")
	r := ts.Do(t, "POST", "/v1/agents/self/rotate-key", a.Key, map[string]any{"rotationSecret": a.Secret}).Must(t, 200)
	ts.Do(t, "POST", "/v1/agents/self/rotate-key", r.Str("apiKey"), map[string]any{"rotationSecret": a.Secret}).Problem(t, 401, cairn.EUNAUTHORIZED)
}

func TestE2ERevocation(t *testing.T) {
	ts := apitest.NewServer(t)
	a := ts.Register(t, "doomed")
	ts.Do(t, "POST", "/v1/admin/agents/"+a.ID+"/revoke", "wrong-token", nil).Problem(t, 401, cairn.EUNAUTHORIZED)
	ts.Do(t, "POST", "/v1/admin/agents/"+cairn.NewID()+"/revoke", "admin-test-token-0123456789abcdef", nil).Problem(t, 404, cairn.ENOTFOUND)
	ts.Do(t, "POST", "/v1/admin/agents/not-an-id/revoke", "admin-test-token-0123456789abcdef", nil).Problem(t, 404, cairn.ENOTFOUND)
	r := ts.Do(t, "POST", "/v1/admin/agents/"+a.ID+"/revoke", "admin-test-token-0123456789abcdef", nil).Must(t, 200)
	if r.JSON["revoked"] != true || r.Str("agentId") != a.ID {
		t.Fatalf("revoke: %s", r.Body)
	}
	ts.Do(t, "GET", "/v1/agents/self", a.Key, nil).Problem(t, 403, cairn.EFORBIDDEN)
	ts.Do(t, "POST", "/v1/agents/self/rotate-key", a.Key, map[string]any{"rotationSecret": a.Secret}).Problem(t, 403, cairn.EFORBIDDEN)
}

func TestE2EAdminDisabled(t *testing.T) {
	ts := apitest.NewServer(t, func(p *wiring.Parts) {
		p.AdminToken = ""
	})
	ts.Do(t, "PUT", "/v1/admin/pricing", "", map[string]any{"operationCosts": map[string]int{"search": 2}}).Problem(t, 403, cairn.EFORBIDDEN)
}
