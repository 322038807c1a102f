package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/billing"
)

// TestSkillDefaultIsShort: GET /v1/skill is the short guide (under 10 KB,
// JSON and Markdown), starting with registration, not with /metrics, and
// the full reference is one link away.
func TestSkillDefaultIsShort(t *testing.T) {
	ls := apitest.NewServer(t)
	j := ls.Do(t, "GET", "/v1/skill", "", nil).Must(t, http.StatusOK)
	md := ls.Do(t, "GET", "/v1/skill", "", nil, "Accept", "text/markdown").Must(t, http.StatusOK)
	if len(j.Body) > 10<<10 || len(md.Body) > 10<<10 {
		t.Fatalf("short guide is %d bytes (JSON), %d (Markdown)", len(j.Body), len(md.Body))
	}
	if j.Str("markdown") != string(md.Body) || j.Str("full") != "/v1/skill?full=true" {
		t.Fatalf("JSON form: full %q", j.Str("full"))
	}
	guide := string(md.Body)
	for _, s := range []string{"agent-register", "POST /v1/memory", "by-key", "/v1/memory/search", "/v1/compliance/screen",
		"/v1/media/upload", "insufficient_credits", "/v1/billing/agent/deposit", "full=true"} {
		if !strings.Contains(guide, s) {
			t.Errorf("the short guide does not mention %q", s)
		}
	}
	if i, k := strings.Index(guide, "/metrics"), strings.Index(guide, "agent-register"); i >= 0 && i < k {
		t.Error("the short guide starts with operator routes")
	}
	full := ls.Do(t, "GET", "/v1/skill?full=true", "", nil).Must(t, http.StatusOK)
	if full.JSON["endpoints"] == nil {
		t.Fatal("full=true is not the full reference")
	}
	ls.Do(t, "GET", "/v1/skill?full=maybe", "", nil).Problem(t, http.StatusBadRequest, "invalid")
}

// TestSkillCostIsTheBillingCost: the full reference states the cost the
// billing charges (POST /v1/agents at the default prices).
func TestSkillCostIsTheBillingCost(t *testing.T) {
	full := apitest.NewServer(t).Do(t, "GET", "/v1/skill?full=true", "", nil).Must(t, http.StatusOK)
	var sk struct {
		Endpoints []struct {
			Method, Path string
			Cost         *struct{ Credits int64 }
		}
	}
	if err := json.Unmarshal(full.Body, &sk); err != nil {
		t.Fatal(err)
	}
	for _, ep := range sk.Endpoints {
		if ep.Method == "POST" && ep.Path == "/v1/agents" {
			if ep.Cost == nil || ep.Cost.Credits != billing.DefaultCosts()[billing.OpAgentCreate] {
				t.Fatalf("POST /v1/agents cost = %+v", ep.Cost)
			}
			return
		}
	}
	t.Fatal("the full reference has no POST /v1/agents")
}
