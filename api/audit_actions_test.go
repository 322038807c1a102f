package api_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
)

// TestAuditFilterEveryAction: the audit log can be filtered by every
// action its entries have, register and rotate_key (the account's own
// entries) included; an unknown action is a 400 listing them all; the
// OpenAPI document names the same actions.
func TestAuditFilterEveryAction(t *testing.T) {
	ls := apitest.NewServer(t)
	a := ls.Register(t, "")
	key := ls.Do(t, http.MethodPost, "/v1/agents/self/rotate-key", a.Key, map[string]any{"rotationSecret": a.Secret}).
		Must(t, http.StatusOK).Str("apiKey")
	for _, action := range cairn.AuditActions {
		t.Run(action, func(t *testing.T) {
			r := ls.Do(t, http.MethodGet, "/v1/memory/audit?action="+action, key, nil).Must(t, http.StatusOK)
			entries := r.JSON["entries"].([]any)
			for _, e := range entries {
				if e.(map[string]any)["action"] != action {
					t.Fatalf("filtered by %s: %s", action, r.Body)
				}
			}
			if want := map[string]int{cairn.AuditRegister: 1, cairn.AuditRotateKey: 1}[action]; want > 0 && len(entries) != want {
				t.Fatalf("%d %s entries, want %d: %s", len(entries), action, want, r.Body)
			}
		})
	}
	r := ls.Do(t, http.MethodGet, "/v1/memory/audit?action=bogus", key, nil).Problem(t, http.StatusBadRequest, cairn.EINVALID)
	if allowed, _ := r.JSON["allowed"].([]any); len(allowed) != len(cairn.AuditActions) {
		t.Fatalf("allowed %v, want %v", r.JSON["allowed"], cairn.AuditActions)
	}

	doc, err := apitest.Document()
	if err != nil {
		t.Fatal(err)
	}
	param := doc.Paths.Find("/v1/memory/audit").Get.Parameters.GetByInAndName("query", "action")
	var enum []string
	for _, v := range param.Schema.Value.Enum {
		enum = append(enum, v.(string))
	}
	if slices.Sort(enum); !slices.Equal(enum, slices.Sorted(slices.Values(cairn.AuditActions))) {
		t.Fatalf("the document's actions %v, the service's %v", enum, cairn.AuditActions)
	}
}
