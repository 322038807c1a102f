package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/api/apitest"
)

// TestErrorsSayWhatToDoNext: each error an agent meets tells it what to
// do about it, in members a program can read.
func TestErrorsSayWhatToDoNext(t *testing.T) {
	ls := apitest.NewServer(t)
	reg := ls.Register(t, "tester")
	key := reg.Key

	t.Run("402 names the deposit address, endpoint and smallest deposit", func(t *testing.T) {
		reg := ls.Register(t, "tester")
		key := reg.Key
		if _, err := ls.API.Ledger.Charge(context.Background(), reg.DeveloperID, reg.ID, "memory.write", 98, "drain"); err != nil {
			t.Fatal(err)
		}
		r := ls.Do(t, "POST", "/v1/memory", key, `{"key":"a/b","content":"x"}`).Problem(t, http.StatusPaymentRequired, "insufficient_credits")
		addr := reg.Address
		if r.Str("depositAddress") != addr || r.Str("depositEndpoint") != "POST /v1/billing/agent/deposit" || r.Str("minimumDepositApt") != "0.003" {
			t.Errorf("402 members: %s", r.Body)
		}
		for _, s := range []string{addr, "POST /v1/billing/agent/deposit", "0.003 APT"} {
			if !strings.Contains(r.Str("detail"), s) {
				t.Errorf("402 detail does not say %q: %s", s, r.Str("detail"))
			}
		}
	})

	t.Run("an expired memory is expired, not unknown", func(t *testing.T) {
		id := ls.Do(t, "POST", "/v1/memory", key, `{"key":"soon/gone","content":"x","expiresIn":"1s"}`).Must(t, http.StatusCreated).Str("id")
		time.Sleep(1100 * time.Millisecond)
		r := ls.Do(t, "GET", "/v1/memory/"+id, key, nil).Problem(t, http.StatusNotFound, "expired")
		if r.Str("expiresAt") == "" || !strings.Contains(r.Str("detail"), "soon/gone") {
			t.Errorf("expired: %s", r.Body)
		}
		ls.Do(t, "GET", "/v1/memory/"+id+"/history", key, nil).Problem(t, http.StatusNotFound, "expired")
		ls.Do(t, "GET", "/v1/memory/01a219a8-685d-705e-be32-878cf5140e3d", key, nil).Problem(t, http.StatusNotFound, "not_found")
	})

	t.Run("an unknown audit action lists the valid ones", func(t *testing.T) {
		r := ls.Do(t, "GET", "/v1/memory/audit?action=remove", key, nil).Problem(t, http.StatusBadRequest, "invalid")
		if !strings.Contains(r.Str("detail"), "delete") || r.Str("field") != "action" || r.JSON["allowed"] == nil {
			t.Errorf("audit action: %s", r.Body)
		}
	})

	t.Run("bulk item errors carry the problem members", func(t *testing.T) {
		r := ls.Do(t, "POST", "/v1/memory/bulk", key, `{"memories":[{"key":"ok/1","content":"x"},{"key":"/bad//key","content":"y"}]}`).Must(t, http.StatusOK)
		item := r.JSON["results"].([]any)[1].(map[string]any)["error"].(map[string]any)
		if item["code"] != "invalid" || item["field"] != "key" || item["detail"] == nil || item["status"] != float64(400) {
			t.Errorf("bulk item error: %v", item)
		}
	})

	t.Run("a developer token on an agent route says an agent key is wanted", func(t *testing.T) {
		jwt, err := ls.API.Tokens.Issue(reg.DeveloperID, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		r := ls.Do(t, "GET", "/v1/memory", jwt, nil).Problem(t, http.StatusUnauthorized, "unauthorized")
		if !strings.Contains(r.Str("detail"), "agent API key") {
			t.Errorf("JWT on an agent route: %s", r.Body)
		}
	})

	t.Run("the pricing note says a failed If-Match is charged", func(t *testing.T) {
		note := ls.Do(t, "GET", "/v1/billing/pricing", "", nil).Must(t, http.StatusOK).Str("note")
		if !strings.Contains(note, "412") {
			t.Errorf("note: %s", note)
		}
		id := ls.Do(t, "POST", "/v1/memory", key, `{"key":"cond/1","content":"x"}`).Must(t, http.StatusCreated).Str("id")
		r := ls.Do(t, "PUT", "/v1/memory/"+id, key, `{"content":"y"}`, "If-Match", `"7"`).Must(t, http.StatusPreconditionFailed)
		if !strings.Contains(r.Str("detail"), "charge stands") {
			t.Errorf("412: %s", r.Body)
		}
	})

	t.Run("credentials are counted in good English", func(t *testing.T) {
		r := ls.Do(t, "POST", "/v1/memory", key, `{"key":"creds/1","content":"aws AKIAZ3MSJV4WTGKEX7PQ","metadata":{"visibility":"share"}}`).Must(t, http.StatusUnprocessableEntity)
		if strings.Contains(r.Str("detail"), "1 kinds") || !strings.Contains(r.Str("detail"), "1 kind") {
			t.Errorf("422: %s", r.Str("detail"))
		}
	})
}

// TestRotationSecretIsNotAKey: the rotation secret keeps the spec's
// sk_live_ prefix but is told apart (sk_live_rs_), and sent as a bearer
// token it is a 401 that says what it is.
func TestRotationSecretIsNotAKey(t *testing.T) {
	ls := apitest.NewServer(t)
	reg := ls.Register(t, "tester")
	key := reg.Key
	secret := reg.Secret
	if !strings.HasPrefix(secret, "sk_live_rs_") || strings.HasPrefix(key, "sk_live_rs_") || !strings.HasPrefix(key, "sk_live_") {
		t.Fatalf("key %q, secret %q", key[:12], secret[:12])
	}
	r := ls.Do(t, "GET", "/v1/memory", secret, nil).Problem(t, http.StatusUnauthorized, "unauthorized")
	if !strings.Contains(r.Str("detail"), "rotation secret") {
		t.Errorf("secret as key: %s", r.Body)
	}
	rot := ls.Do(t, "POST", "/v1/agents/self/rotate-key", key, map[string]any{"rotationSecret": secret}).Must(t, http.StatusOK)
	if !strings.HasPrefix(rot.Str("rotationSecret"), "sk_live_rs_") {
		t.Errorf("rotated secret %q", rot.Str("rotationSecret")[:12])
	}
}
