package api_test

import "testing"

// TestResponsesMatchDocument drives every route through its success and
// error paths and validates each response against the document.
func TestResponsesMatchDocument(t *testing.T) {
	srv := newServer(t)
	_, b := do(t, srv, "POST", "/v1/auth/agent-register", "", nil, `{"name":"doc-agent"}`)
	reg := decode(t, b)
	key, secret := reg["apiKey"].(string), reg["rotationSecret"].(string)
	dev, agentID := reg["developerId"].(string), reg["agentId"].(string)
	_, b = do(t, srv, "POST", "/v1/auth/agent-register", "", nil, "")
	other := decode(t, b)
	var oldKey string

	cases := []struct {
		name, method, path, auth, body string
		header                         map[string]string
		want                           int
	}{
		{"healthz", "GET", "/healthz", "", "", nil, 200},
		{"readyz", "GET", "/readyz", "", "", nil, 200},
		{"metrics", "GET", "/metrics", adminToken, "", nil, 200},
		{"metrics ErrToken", "GET", "/metrics", "", "", nil, 401},
		{"openapi", "GET", "/v1/openapi.json", "", "", nil, 200},
		{"skill JSON", "GET", "/v1/skill", "", "", nil, 200},
		{"skill Markdown", "GET", "/v1/skill", "", "", map[string]string{"Accept": "text/markdown"}, 200},
		{"pricing", "GET", "/v1/billing/pricing", "", "", nil, 200},
		{"register ErrInvalid", "POST", "/v1/auth/agent-register", "", `{"name":7}`, nil, 400},
		{"register ErrMediaType", "POST", "/v1/auth/agent-register", "", `{"name":"x"}`, map[string]string{"Content-Type": "text/plain"}, 415},
		{"self", "GET", "/v1/agents/self", key, "", nil, 200},
		{"self ErrUnauthorized", "GET", "/v1/agents/self", "", "", nil, 401},
		{"self ErrBadKey", "GET", "/v1/agents/self", "sk_live_nope", "", nil, 401},
		{"balance", "GET", "/v1/billing/balance", key, "", nil, 200},
		{"agent balance", "GET", "/v1/billing/agent/balance", key, "", nil, 200},
		{"create agent", "POST", "/v1/agents", key, `{"name":"second"}`, nil, 201},
		{"create agent no body", "POST", "/v1/agents", key, "", nil, 201},
		{"transactions", "GET", "/v1/billing/transactions?limit=1", key, "", nil, 200},
		{"transactions ErrLimit", "GET", "/v1/billing/transactions?limit=0", key, "", nil, 400},
		{"transactions ErrCursor", "GET", "/v1/billing/transactions?cursor=bogus", key, "", nil, 400},
		{"admin pricing", "PUT", "/v1/admin/pricing", adminToken, `{"operationCosts":{"agent.create":500}}`, nil, 200},
		{"admin pricing ErrUnknown", "PUT", "/v1/admin/pricing", adminToken, `{"operationCosts":{"nope":1}}`, nil, 400},
		{"admin pricing ErrToken", "PUT", "/v1/admin/pricing", "wrong", `{"operationCosts":{"search":1}}`, nil, 401},
		{"admin pricing ErrMediaType", "PUT", "/v1/admin/pricing", adminToken, `{}`, map[string]string{"Content-Type": "text/plain"}, 415},
		{"create agent ErrCredits", "POST", "/v1/agents", other["apiKey"].(string), "", nil, 402},
		{"admin credits", "POST", "/v1/admin/credits", adminToken, `{"developerId":"` + dev + `","amount":5,"reason":"test"}`, nil, 200},
		{"admin credits ErrInvalid", "POST", "/v1/admin/credits", adminToken, `{"developerId":"x","amount":5,"reason":"r"}`, nil, 400},
		{"admin credits ErrNegative", "POST", "/v1/admin/credits", adminToken, `{"developerId":"` + dev + `","amount":-100000,"reason":"r"}`, nil, 409},
		{"admin revoke ErrNotFound", "POST", "/v1/admin/agents/nope/revoke", adminToken, "", nil, 404},
		{"unknown path", "GET", "/v1/nothing-here", "", "", nil, 404},
		{"wrong method", "DELETE", "/v1/billing/pricing", "", "", nil, 405},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, b := do(t, srv, tc.method, tc.path, tc.auth, tc.header, tc.body)
			if resp.StatusCode != tc.want {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.want, b)
			}
		})
	}

	// Rotation and revocation change the credentials, so they run in order.
	// Rotation allows 3 attempts per window per client IP.
	steps := []struct {
		name, method, path string
		auth               func() string
		body               func() string
		want               int
	}{
		{"rotate ErrMissing", "POST", "/v1/agents/self/rotate-key", func() string { return key }, func() string { return `{}` }, 400},
		{"rotate ErrSecret", "POST", "/v1/agents/self/rotate-key", func() string { return key }, func() string { return `{"rotationSecret":"sk_live_wrong"}` }, 401},
		{"rotate", "POST", "/v1/agents/self/rotate-key", func() string { return key }, func() string { return `{"rotationSecret":"` + secret + `"}` }, 200},
		{"rotate ErrRateLimited", "POST", "/v1/agents/self/rotate-key", func() string { return key }, func() string { return `{}` }, 429},
		{"old key ErrUnauthorized", "GET", "/v1/agents/self", func() string { return oldKey }, func() string { return "" }, 401},
		{"revoke", "POST", "/v1/admin/agents/" + agentID + "/revoke", func() string { return adminToken }, func() string { return "" }, 200},
		{"revoke again", "POST", "/v1/admin/agents/" + agentID + "/revoke", func() string { return adminToken }, func() string { return "" }, 200},
		{"revoked ErrForbidden", "GET", "/v1/agents/self", func() string { return key }, func() string { return "" }, 403},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			resp, b := do(t, srv, st.method, st.path, st.auth(), nil, st.body())
			if resp.StatusCode != st.want {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, st.want, b)
			}
			if st.name == "rotate" {
				oldKey, key = key, decode(t, b)["apiKey"].(string)
			}
		})
	}
}
