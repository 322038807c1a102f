package api_test

import (
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/internal/wiring"
)

// fetchFile fetches a path of ts without the OpenAPI check (the console's files
// are not JSON) and returns the response and its body.
func fetchFile(t *testing.T, ts *apitest.Server, path string) (*http.Response, string) {
	t.Helper()
	resp, err := http.Get(ts.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

var (
	consoleRef    = regexp.MustCompile(`(?:src|href)="(/console/[^"]+)"`)
	consoleImport = regexp.MustCompile(`from '\./([a-z]+\.js)'`)
)

// TestConsoleServesItsFilesUnderAStrictPolicy: /console is the page, with
// a Content-Security-Policy that allows nothing inline and nothing from
// another origin; every file the page and its modules load is served with
// its type; the page has no inline script, style or event handler; an
// unknown file is a 404 problem.
func TestConsoleServesItsFilesUnderAStrictPolicy(t *testing.T) {
	ts := apitest.NewServer(t)
	resp, page := fetchFile(t, ts, "/console")
	csp := resp.Header.Get("Content-Security-Policy")
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("/console: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	for _, want := range []string{"default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("policy %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe") || strings.Contains(csp, "http") {
		t.Errorf("policy %q allows inline code or another origin", csp)
	}
	if regexp.MustCompile(`<script>|<script [^>]*>[^<]|<style|\sstyle=|\son[a-z]+=`).MatchString(page) {
		t.Error("the page holds inline script, style or an event handler attribute")
	}
	files := map[string]string{}
	for _, m := range consoleRef.FindAllStringSubmatch(page, -1) {
		files[m[1]] = ""
	}
	// The modules the entry imports, and those they import.
	for todo := []string{"/console/console.js"}; len(todo) > 0; todo = todo[1:] {
		r, body := fetchFile(t, ts, todo[0])
		if r.StatusCode != 200 || r.Header.Get("Content-Type") != "text/javascript; charset=utf-8" || r.Header.Get("Content-Security-Policy") != csp {
			t.Fatalf("%s: %d %q", todo[0], r.StatusCode, r.Header.Get("Content-Type"))
		}
		code := strings.ReplaceAll(body, "'http://www.w3.org/2000/svg'", "") // a name, not a place
		if strings.Contains(code, "innerHTML") || strings.Contains(code, "eval(") || strings.Contains(code, "http://") || strings.Contains(code, "https://") {
			t.Errorf("%s writes HTML from strings, evaluates code or names another origin", todo[0])
		}
		files[todo[0]] = body
		for _, m := range consoleImport.FindAllStringSubmatch(body, -1) {
			if _, seen := files["/console/"+m[1]]; !seen {
				files["/console/"+m[1]] = ""
				todo = append(todo, "/console/"+m[1])
			}
		}
	}
	if len(files) < 8 {
		t.Fatalf("found %d files of the console: %v", len(files), files)
	}
	if r, _ := fetchFile(t, ts, "/console/console.css"); r.StatusCode != 200 || r.Header.Get("Content-Type") != "text/css; charset=utf-8" {
		t.Errorf("style sheet: %d %q", r.StatusCode, r.Header.Get("Content-Type"))
	}
	for _, bad := range []string{"/console/nothing.js", "/console/..%2fconsole.go", "/console/doc.go"} {
		ts.Do(t, "GET", bad, "", nil).Problem(t, 404, cairn.ENOTFOUND)
	}
}

// TestVersionChanges: the changes of a list version are the entries it
// listed and delisted, paged by cursor, read with a key or the admin
// token; an escalation's version lists the escalated address from the
// community source; an unknown version is a 404.
func TestVersionChanges(t *testing.T) {
	ts := apitest.NewServer(t, apitest.SanctionsLists(t))
	a := ts.Register(t, "")
	first := ts.Do(t, "GET", "/v1/compliance/versions/1/changes?limit=100", a.Key, nil).Must(t, 200)
	if first.Num("listVersion") != 1 || first.JSON["hasMore"] != true || first.Str("builtAt") == "" {
		t.Fatalf("first page of version 1: %s", first.Body)
	}
	seen := map[string]bool{}
	pages := 0
	for r := first; ; pages++ {
		for _, c := range r.JSON["changes"].([]any) {
			ch := c.(map[string]any)
			if ch["change"] != "added" || ch["source"] == "" {
				t.Fatalf("change of version 1: %v", ch)
			}
			key := ch["family"].(string) + " " + ch["address"].(string)
			if seen[key] {
				t.Fatalf("%s twice in the changes of version 1", key)
			}
			seen[key] = true
		}
		if r.JSON["hasMore"] != true {
			break
		}
		r = ts.Do(t, "GET", "/v1/compliance/versions/1/changes?limit=100&cursor="+r.Str("nextCursor"), a.Key, nil).Must(t, 200)
	}
	// Every address of the two list files (587 lines), each once.
	if len(seen) != 587 || pages != 5 || !seen["evm "+strings.ToLower(apitest.Tornado)] {
		t.Fatalf("version 1 listed %d addresses in %d pages", len(seen), pages+1)
	}
	const reported = "0x1111111111111111111111111111111111111111"
	ts.Escalate(t, reported)
	v := int(ts.ListVersion(t))
	r := ts.Do(t, "GET", "/v1/compliance/versions/"+strconv.Itoa(v)+"/changes", a.Key, nil).Must(t, 200)
	cs := r.JSON["changes"].([]any)
	if v != 2 || len(cs) != 1 || cs[0].(map[string]any)["address"] != reported || cs[0].(map[string]any)["source"] != "community" {
		t.Fatalf("changes of the escalation's version %d: %s", v, r.Body)
	}
	ts.Do(t, "GET", "/v1/compliance/versions/9/changes", a.Key, nil).Problem(t, 404, cairn.ENOTFOUND)
	ts.Do(t, "GET", "/v1/compliance/versions/x/changes", a.Key, nil).Problem(t, 404, cairn.ENOTFOUND)
	ts.Do(t, "GET", "/v1/compliance/versions/1/changes", "", nil).Problem(t, 401, cairn.EUNAUTHORIZED)
	if r := ts.Do(t, "GET", "/v1/compliance/versions/1/changes?limit=3", apitest.AdminToken, nil).Must(t, 200); len(r.JSON["changes"].([]any)) != 3 {
		t.Fatalf("changes read with the admin token: %s", r.Body)
	}
	// A cursor of version 1 does not page version 2.
	ts.Do(t, "GET", "/v1/compliance/versions/2/changes?cursor="+first.Str("nextCursor"), a.Key, nil).Problem(t, 400, cairn.EINVALID)
	if vs := ts.Do(t, "GET", "/v1/compliance/versions", apitest.AdminToken, nil).Must(t, 200); len(vs.JSON["versions"].([]any)) != 2 {
		t.Fatalf("versions read with the admin token: %s", vs.Body)
	}
}

// TestAdminAgentLookup: the administrator looks an agent up by id, with
// its developer's balance, before and after revoking it; a key cannot,
// and an unknown id is a 404.
func TestAdminAgentLookup(t *testing.T) {
	ts := apitest.NewServer(t)
	a := ts.Register(t, "desk")
	ts.Do(t, "POST", "/v1/admin/credits", apitest.AdminToken, map[string]any{"developerId": a.DeveloperID, "amount": 25, "reason": "test"}).Must(t, 200)
	r := ts.Do(t, "GET", "/v1/admin/agents/"+a.ID, apitest.AdminToken, nil).Must(t, 200)
	if r.Str("agentId") != a.ID || r.Str("developerId") != a.DeveloperID || r.Str("name") != "desk" || r.JSON["revoked"] != false ||
		r.JSON["revokedAt"] != nil || r.Num("creditBalance") != float64(ts.Balance(t, a.Key)) || r.Str("depositAddress") != a.Address {
		t.Fatalf("agent %s: %s", a.ID, r.Body)
	}
	ts.Do(t, "POST", "/v1/admin/agents/"+a.ID+"/revoke", apitest.AdminToken, nil).Must(t, 200)
	if r := ts.Do(t, "GET", "/v1/admin/agents/"+a.ID, apitest.AdminToken, nil).Must(t, 200); r.JSON["revoked"] != true || r.Str("revokedAt") == "" {
		t.Fatalf("revoked agent: %s", r.Body)
	}
	b := ts.Register(t, "")
	ts.Do(t, "GET", "/v1/admin/agents/"+a.ID, b.Key, nil).Problem(t, 401, cairn.EUNAUTHORIZED)
	ts.Do(t, "GET", "/v1/admin/agents/"+cairn.NewID(), apitest.AdminToken, nil).Problem(t, 404, cairn.ENOTFOUND)
	ts.Do(t, "GET", "/v1/admin/agents/not-an-id", apitest.AdminToken, nil).Problem(t, 404, cairn.ENOTFOUND)
}

// TestVersionChangesCountAsWrites: reading a version's changes, which
// scans the list, counts against the agent's write limit.
func TestVersionChangesCountAsWrites(t *testing.T) {
	ts := apitest.NewServer(t, apitest.SanctionsLists(t), func(p *wiring.Parts) { p.Limits.WritesPerAgent = 2 })
	a := ts.Register(t, "")
	for range 2 {
		ts.Do(t, "GET", "/v1/compliance/versions/1/changes?limit=1", a.Key, nil).Must(t, 200)
	}
	r := ts.Do(t, "GET", "/v1/compliance/versions/1/changes?limit=1", a.Key, nil).Problem(t, 429, cairn.ERATELIMIT)
	if r.Str("policy") != "writes" || r.Header.Get("Retry-After") == "" {
		t.Fatalf("third read: %s", r.Body)
	}
	// Other reads are not writes.
	ts.Do(t, "GET", "/v1/compliance/versions", a.Key, nil).Must(t, 200)
}
