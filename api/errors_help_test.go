package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestErrorsSayWhatToDoNext: each error an agent meets tells it what to
// do about it, in members a program can read.
func TestErrorsSayWhatToDoNext(t *testing.T) {
	ls := newLiveServer(t)
	key, reg := ls.register(t)

	t.Run("402 names the deposit address, endpoint and smallest deposit", func(t *testing.T) {
		key, reg := ls.register(t)
		if _, err := ls.Ledger.Charge(context.Background(), reg.str("developerId"), reg.str("agentId"), "memory.write", 98, "drain"); err != nil {
			t.Fatal(err)
		}
		r := ls.do(t, "POST", "/v1/memory", key, `{"key":"a/b","content":"x"}`).want(t, http.StatusPaymentRequired, "insufficient_credits")
		addr := reg.str("aptosAddress")
		if r.str("depositAddress") != addr || r.str("depositEndpoint") != "POST /v1/billing/agent/deposit" || r.str("minimumDepositApt") != "0.003" {
			t.Errorf("402 members: %s", r.Body)
		}
		for _, s := range []string{addr, "POST /v1/billing/agent/deposit", "0.003 APT"} {
			if !strings.Contains(r.str("detail"), s) {
				t.Errorf("402 detail does not say %q: %s", s, r.str("detail"))
			}
		}
	})

	t.Run("an expired memory is expired, not unknown", func(t *testing.T) {
		id := ls.do(t, "POST", "/v1/memory", key, `{"key":"soon/gone","content":"x","expiresIn":"1s"}`).want(t, http.StatusCreated).str("id")
		time.Sleep(1100 * time.Millisecond)
		r := ls.do(t, "GET", "/v1/memory/"+id, key, nil).want(t, http.StatusNotFound, "expired")
		if r.str("expiresAt") == "" || !strings.Contains(r.str("detail"), "soon/gone") {
			t.Errorf("expired: %s", r.Body)
		}
		ls.do(t, "GET", "/v1/memory/"+id+"/history", key, nil).want(t, http.StatusNotFound, "expired")
		ls.do(t, "GET", "/v1/memory/01a219a8-685d-705e-be32-878cf5140e3d", key, nil).want(t, http.StatusNotFound, "not_found")
	})

	t.Run("an unknown audit action lists the valid ones", func(t *testing.T) {
		r := ls.do(t, "GET", "/v1/memory/audit?action=remove", key, nil).want(t, http.StatusBadRequest, "invalid")
		if !strings.Contains(r.str("detail"), "delete") || r.str("field") != "action" || r.JSON["allowed"] == nil {
			t.Errorf("audit action: %s", r.Body)
		}
	})

	t.Run("bulk item errors carry the problem members", func(t *testing.T) {
		r := ls.do(t, "POST", "/v1/memory/bulk", key, `{"memories":[{"key":"ok/1","content":"x"},{"key":"/bad//key","content":"y"}]}`).want(t, http.StatusOK)
		item := r.JSON["results"].([]any)[1].(map[string]any)["error"].(map[string]any)
		if item["code"] != "invalid" || item["field"] != "key" || item["detail"] == nil || item["status"] != float64(400) {
			t.Errorf("bulk item error: %v", item)
		}
	})

	t.Run("a developer token on an agent route says an agent key is wanted", func(t *testing.T) {
		jwt, err := ls.Tokens.Issue(reg.str("developerId"), time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		r := ls.do(t, "GET", "/v1/memory", jwt, nil).want(t, http.StatusUnauthorized, "unauthorized")
		if !strings.Contains(r.str("detail"), "agent API key") {
			t.Errorf("JWT on an agent route: %s", r.Body)
		}
	})

	t.Run("the pricing note says a failed If-Match is charged", func(t *testing.T) {
		note := ls.do(t, "GET", "/v1/billing/pricing", "", nil).want(t, http.StatusOK).str("note")
		if !strings.Contains(note, "412") {
			t.Errorf("note: %s", note)
		}
		id := ls.do(t, "POST", "/v1/memory", key, `{"key":"cond/1","content":"x"}`).want(t, http.StatusCreated).str("id")
		r := ls.do(t, "PUT", "/v1/memory/"+id, key, `{"content":"y"}`, "If-Match", `"7"`).want(t, http.StatusPreconditionFailed)
		if !strings.Contains(r.str("detail"), "charge stands") {
			t.Errorf("412: %s", r.Body)
		}
	})

	t.Run("credentials are counted in good English", func(t *testing.T) {
		r := ls.do(t, "POST", "/v1/memory", key, `{"key":"creds/1","content":"aws AKIAZ3MSJV4WTGKEX7PQ","metadata":{"visibility":"share"}}`).want(t, http.StatusUnprocessableEntity)
		if strings.Contains(r.str("detail"), "1 kinds") || !strings.Contains(r.str("detail"), "1 kind") {
			t.Errorf("422: %s", r.str("detail"))
		}
	})
}

// TestRotationSecretIsNotAKey: the rotation secret keeps the spec's
// sk_live_ prefix but is told apart (sk_live_rs_), and sent as a bearer
// token it is a 401 that says what it is.
func TestRotationSecretIsNotAKey(t *testing.T) {
	ls := newLiveServer(t)
	key, reg := ls.register(t)
	secret := reg.str("rotationSecret")
	if !strings.HasPrefix(secret, "sk_live_rs_") || strings.HasPrefix(key, "sk_live_rs_") || !strings.HasPrefix(key, "sk_live_") {
		t.Fatalf("key %q, secret %q", key[:12], secret[:12])
	}
	r := ls.do(t, "GET", "/v1/memory", secret, nil).want(t, http.StatusUnauthorized, "unauthorized")
	if !strings.Contains(r.str("detail"), "rotation secret") {
		t.Errorf("secret as key: %s", r.Body)
	}
	rot := ls.do(t, "POST", "/v1/agents/self/rotate-key", key, map[string]any{"rotationSecret": secret}).want(t, http.StatusOK)
	if !strings.HasPrefix(rot.str("rotationSecret"), "sk_live_rs_") {
		t.Errorf("rotated secret %q", rot.str("rotationSecret")[:12])
	}
}
