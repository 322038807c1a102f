package api_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/internal/wiring"
)

// TestE2EAdversarialEveryRoute walks the OpenAPI document and sends every
// route what an attacker or a careless client would: no credentials, wrong
// credentials, malformed JSON, wrong types, huge numbers, invalid UTF-8,
// and another agent's ids in the path. Every answer must be a 2xx or a 4xx
// problem document, never a 5xx, and a refundable failure (or an
// unauthenticated one) must leave the caller's balance as it was.
func TestE2EAdversarialEveryRoute(t *testing.T) {
	ts := apitest.NewServer(t, apitest.SanctionsLists(t), func(p *wiring.Parts) {
		p.Limits.RequestsPerKey, p.Limits.WritesPerAgent, p.Limits.PublicPerIP, p.Limits.RotationsPerIP = 0, 0, 0, 0
	})
	victim := ts.Register(t, "victim")
	memID := ts.Do(t, "POST", "/v1/memory", victim.Key, map[string]any{"key": "secret", "content": "victim's"}).Must(t, 201).Str("id")
	mediaID := ts.Upload(t, victim.Key, apitest.Part{Name: "file", Filename: "a.txt", ContentType: "text/plain", Body: []byte("victim's file")}).Must(t, 201).Str("id")
	attacker := ts.Register(t, "attacker")
	ts.TopUp(t, attacker, 10000)

	doc := ts.Do(t, "GET", "/v1/openapi.json", "", nil).Must(t, 200).JSON["paths"].(map[string]any)
	paths := make([]string, 0, len(doc))
	for p := range doc {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	fill := func(p string) string {
		id := memID
		if strings.HasPrefix(p, "/v1/media") {
			id = mediaID
		}
		for {
			i := strings.IndexByte(p, '{')
			if i < 0 {
				return p
			}
			j := strings.IndexByte(p[i:], '}')
			name := p[i+1 : i+j]
			v := id
			switch name {
			case "agentId":
				v = victim.ID
			case "sha256":
				v = strings.Repeat("ab", 32)
			}
			p = p[:i] + v + p[i+j+1:]
		}
	}
	bodies := map[string][]byte{
		"malformed JSON": []byte(`{"content": "x", `),
		"wrong types": []byte(`{"content": 5, "key": [], "addresses": "x", "memories": {}, "ids": 7, "importance": "high",
			"name": {}, "rotationSecret": 1, "txHash": false, "operationCosts": [], "amount": "ten", "query": {"a": 1}}`),
		"huge numbers": []byte(`{"content": "x", "key": "k", "importance": 1e400, "limit": 99999999999999999999999999,
			"amount": 1e300, "expiresIn": "99999999999999d", "addresses": [], "ids": [], "memories": [], "offset": -1e30}`),
		"invalid UTF-8": append(append([]byte(`{"content": "`), 0xff, 0xfe, 0xc0, 0x80), []byte(`", "key": "k\xed\xa0\x80", "name": "\xff"}`)...),
	}
	creds := map[string]string{"no credentials": "", "wrong credentials": "sk_live_not-a-key", "attacker's key": attacker.Key}
	send := func(method, path, key string, body []byte) (int, string, []byte) {
		var rd io.Reader
		if body != nil {
			rd = bytes.NewReader(body)
		}
		req, err := http.NewRequest(method, ts.URL+path, rd)
		if err != nil {
			t.Fatal(err)
		}
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Content-Type"), b
	}
	n := 0
	for _, p := range paths {
		for method := range doc[p].(map[string]any) {
			method = strings.ToUpper(method)
			switch method {
			case "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD":
			default:
				continue
			}
			path := fill(p)
			for credName, key := range creds {
				cases := map[string][]byte{"no body": nil}
				if method == "POST" || method == "PUT" || method == "PATCH" {
					cases = bodies
				}
				for bodyName, body := range cases {
					before := ts.Balance(t, attacker.Key)
					st, ct, b := send(method, path, key, body)
					n++
					what := method + " " + p + " (" + credName + ", " + bodyName + ")"
					if st >= 500 {
						t.Errorf("%s: %d %s", what, st, b)
						continue
					}
					if st >= 400 {
						var prob map[string]any
						if !strings.HasPrefix(ct, "application/problem+json") || method != "HEAD" && (json.Unmarshal(b, &prob) != nil || prob["code"] == nil) {
							t.Errorf("%s: %d without a problem document (%s): %s", what, st, ct, b)
						}
					}
					if after := ts.Balance(t, attacker.Key); after != before && (refundableStatus(st) || st == 401 || st == 403 || st == 405) {
						t.Errorf("%s: %d cost %d credits", what, st, before-after)
					}
				}
			}
		}
	}
	if n < 100 {
		t.Fatalf("only %d requests sent: the OpenAPI walk found too few routes", n)
	}
	if g := ts.Do(t, "GET", "/v1/memory/"+memID, victim.Key, nil).Must(t, 200); g.Str("content") != "victim's" || g.Num("version") != 1 {
		t.Fatalf("the victim's memory changed: %s", g.Body)
	}
	ts.Do(t, "GET", "/v1/media/"+mediaID, victim.Key, nil).Must(t, 200)
}

// refundableStatus is spec 7's list of statuses whose charge is refunded.
func refundableStatus(st int) bool {
	return st == 400 || st == 413 || st == 415 || st == 416 || st == 422 || st >= 500
}
