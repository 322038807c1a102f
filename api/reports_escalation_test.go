package api_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/merkle"
)

// TestE2EReportEscalationNeedsThreeAccounts: one developer reporting an
// address under other spellings, chains and agents is one reporter (409,
// no escalation); the third distinct account escalates, and the community
// listing then has a proof against the new root.
func TestE2EReportEscalationNeedsThreeAccounts(t *testing.T) {
	ts := screenServer(t)
	const suspect = "0x00000000000000000000000000000000deadbeef"
	one := ts.RegisterEstablished(t)
	kid := ts.Do(t, "POST", "/v1/agents", one.Key, nil).Must(t, 201).Str("apiKey")
	status := func() string {
		t.Helper()
		r := ts.Do(t, "POST", "/v1/compliance/screen", one.Key, map[string]any{"addresses": []map[string]any{{"address": suspect, "chain": "ethereum"}}}).Must(t, 200)
		return r.JSON["results"].([]any)[0].(map[string]any)["status"].(string)
	}
	for i, tc := range []struct {
		key    string
		body   map[string]any
		status int
		code   string
	}{
		{one.Key, map[string]any{"address": suspect, "category": "scam", "reason": "ünïcødé 🙂"}, 201, ""},
		{one.Key, map[string]any{"address": "0x" + strings.ToUpper(suspect[2:]), "chain": "polygon", "category": "hack", "reason": "x"}, 409, cairn.ECONFLICT},
		{kid, map[string]any{"address": " " + suspect + " ", "chain": "BASE", "category": "theft", "reason": "x"}, 409, cairn.ECONFLICT},
		{kid, map[string]any{"address": strings.ToUpper(suspect[2:]), "chain": "arbitrum", "category": "fraud", "reason": "x"}, 409, cairn.ECONFLICT},
		{kid, map[string]any{"address": suspect, "chain": "ethereum", "category": "Scam", "reason": "x"}, 400, cairn.EINVALID},
		{kid, map[string]any{"address": suspect, "chain": "ethereum", "category": "scam", "reason": strings.Repeat("é", 1001)}, 400, cairn.EINVALID},
		{kid, map[string]any{"address": suspect, "chain": "bitcoin", "category": "scam", "reason": "x"}, 400, cairn.EINVALID},
	} {
		r := ts.Do(t, "POST", "/v1/compliance/report", tc.key, tc.body)
		if tc.code == "" {
			r.Must(t, tc.status)
			if r.JSON["autoEscalated"] != false {
				t.Fatalf("report %d: %s", i, r.Body)
			}
		} else {
			r.Problem(t, tc.status, tc.code)
		}
	}
	st := ts.Do(t, "GET", "/v1/compliance/stats", "", nil).Must(t, 200)
	if comm := st.JSON["community"].(map[string]any); comm["totalReports"] != float64(1) || status() != "clear" {
		t.Fatalf("one account counted more than once: %s", st.Body)
	}
	for i, want := range []bool{false, true} {
		b := ts.RegisterEstablished(t)
		r := ts.Do(t, "POST", "/v1/compliance/report", b.Key, map[string]any{"address": strings.ToUpper(suspect[2:]), "category": "scam", "reason": "x"}).Must(t, 201)
		if r.JSON["autoEscalated"] != want {
			t.Fatalf("reporter %d: %s", i+2, r.Body)
		}
	}
	if status() != "flagged" {
		t.Fatal("not flagged after three accounts")
	}
	// dataSources names the sources used: the community one only when
	// includeCommunity is not false, in the response and in the proof.
	for _, include := range []bool{true, false} {
		r := ts.Do(t, "POST", "/v1/compliance/screen", one.Key, map[string]any{"includeCommunity": include,
			"addresses": []map[string]any{{"address": suspect, "chain": "ethereum"}}}).Must(t, 200)
		doc := ts.Do(t, "GET", "/v1/compliance/proofs/"+r.JSON["proof"].(map[string]any)["screeningId"].(string), one.Key, nil).Must(t, 200)
		for _, ds := range [][]any{r.JSON["dataSources"].([]any), r.JSON["proof"].(map[string]any)["dataSources"].([]any), doc.JSON["dataSources"].([]any)} {
			has := false
			for _, s := range ds {
				has = has || s == "community"
			}
			if has != include || len(ds) != 2+btoi(include) {
				t.Fatalf("includeCommunity %v: dataSources %v", include, ds)
			}
		}
		ts.CheckResultsHash(t, one.Key, r)
	}
	// The community listing is a leaf of the community tree with a proof,
	// but it is not a sanction: the Merkle endpoints say class community,
	// listed, not sanctioned, as the screening says flagged.
	root := ts.Do(t, "GET", "/v1/compliance/merkle-root", one.Key, nil).Must(t, 200)
	p := ts.Do(t, "GET", "/v1/compliance/merkle-proof?chain=ethereum&address="+suspect, one.Key, nil).Must(t, 200)
	if p.JSON["sanctioned"] != false || p.JSON["listed"] != true || p.Str("class") != "community" || p.Str("root") != root.Str("communityRoot") ||
		!merkle.Verify(apitest.HexBytes32(t, root.Str("communityRoot")), apitest.HexBytes32(t, p.Str("leaf")), apitest.ProofHashes(t, p.JSON["proof"])) ||
		merkle.Verify(apitest.HexBytes32(t, root.Str("sanctionsRoot")), apitest.HexBytes32(t, p.Str("leaf")), apitest.ProofHashes(t, p.JSON["proof"])) {
		t.Fatalf("community listing proof: %s (root %s)", p.Body, root.Body)
	}
	b := ts.Do(t, "POST", "/v1/compliance/merkle-proof/batch", one.Key, map[string]any{"multiproof": true,
		"addresses": []map[string]any{{"address": suspect, "chain": "base"}, {"address": apitest.Tornado, "chain": "ethereum"}}}).Must(t, 200)
	apitest.VerifyBatch(t, b, apitest.HexBytes32(t, root.Str("root")), 1)
	for i, want := range []bool{false, true} {
		if item := b.JSON["results"].([]any)[i].(map[string]any); item["sanctioned"] != want || item["listed"] != true {
			t.Fatalf("batch item %d: %v", i, item)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestE2EReportEscalationConcurrent: six accounts report one address at
// once, and two agents of one more account: exactly one report escalates,
// and the account with two agents is one reporter (one 201, one 409).
func TestE2EReportEscalationConcurrent(t *testing.T) {
	ts := screenServer(t)
	const suspect = "0x000000000000000000000000000000000000beef"
	var keys []string
	for range 6 {
		keys = append(keys, ts.RegisterEstablished(t).Key)
	}
	twin := ts.RegisterEstablished(t)
	keys = append(keys, twin.Key, ts.Do(t, "POST", "/v1/agents", twin.Key, nil).Must(t, 201).Str("apiKey"))
	status := make([]int, len(keys))
	escalated := make([]bool, len(keys))
	var wg sync.WaitGroup
	for i, k := range keys {
		wg.Go(func() {
			body, _ := json.Marshal(map[string]any{"address": suspect, "chain": "ethereum", "category": "scam", "reason": "x"})
			req, _ := http.NewRequest("POST", ts.URL+"/v1/compliance/report", bytes.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+k)
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			var out struct {
				AutoEscalated bool `json:"autoEscalated"`
			}
			_ = json.NewDecoder(resp.Body).Decode(&out)
			status[i], escalated[i] = resp.StatusCode, out.AutoEscalated
		})
	}
	wg.Wait()
	n := 0
	for i := range keys {
		if escalated[i] {
			n++
		}
		if want := 201; i < 6 && status[i] != want {
			t.Fatalf("reporter %d: status %d", i, status[i])
		}
	}
	if twins := []int{status[6], status[7]}; !(twins[0] == 201 && twins[1] == 409 || twins[0] == 409 && twins[1] == 201) {
		t.Fatalf("two agents of one account: %v, want one 201 and one 409", twins)
	}
	if n != 1 {
		t.Fatalf("%d reports escalated, want exactly 1", n)
	}
	st := ts.Do(t, "GET", "/v1/compliance/stats", "", nil).Must(t, 200)
	if st.JSON["community"].(map[string]any)["totalReports"] != float64(7) ||
		st.JSON["compliance"].(map[string]any)["bySource"].(map[string]any)["community"] != float64(1) {
		t.Fatalf("stats: %s", st.Body)
	}
}
