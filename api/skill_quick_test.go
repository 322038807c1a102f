package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/api/apitest"
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
