package api_test

import (
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/api/apitest"
)

// watched is an EVM address no list of testdata holds, in mixed case
// (its EIP-55 form), as an exchange holds it.
const watched = "0x52908400098527886E0F7030069857D2E4169EE7"

// TestWatchlistsEndToEnd: an account watches addresses (invalid ones
// reported, another account's watchlist a 404), a list version that lists
// one records exactly one alert per watchlist with the proof that it is
// listed, and the version that delists it an alert with its exclusion
// proof; the alerts page with the common cursor.
func TestWatchlistsEndToEnd(t *testing.T) {
	eth, xbt := apitest.ListFiles(t)
	ls := newMemServer(t, apitest.Lists(t, "list:ETH="+eth, "list:XBT="+xbt))
	a, b := ls.NewAgent(t, 100), ls.NewAgent(t, 100)
	body := map[string]any{"name": "hot wallets", "addresses": []map[string]string{
		{"address": watched, "chain": "ethereum"}, {"address": "0xnope", "chain": "ethereum"},
		{"address": watched, "chain": "no-such-chain"}, {"address": strings.ToLower(watched), "chain": "eth"}}}
	r := ls.Do(t, "POST", "/v1/compliance/watchlists", a.Key, body).Must(t, http.StatusCreated)
	w := r.JSON["watchlist"].(map[string]any)
	id := w["id"].(string)
	rej := r.JSON["rejected"].([]any)
	if w["addressCount"] != 1.0 || r.Num("added") != 1 || len(rej) != 2 || r.Num("creditCharged") != 0 ||
		rej[0].(map[string]any)["reason"] != "invalid_address" || rej[1].(map[string]any)["reason"] != "unknown_chain" {
		t.Fatalf("create: %s", r.Body)
	}
	ls.Do(t, "GET", "/v1/compliance/watchlists/"+id, b.Key, nil).Problem(t, http.StatusNotFound, "not_found")
	ls.Do(t, "DELETE", "/v1/compliance/watchlists/"+id, b.Key, nil).Problem(t, http.StatusNotFound, "not_found")
	ls.Do(t, "POST", "/v1/compliance/watchlists/"+id+"/addresses", b.Key, map[string]any{"addresses": []any{}}).Problem(t, http.StatusNotFound, "not_found")
	other := ls.Do(t, "POST", "/v1/compliance/watchlists", b.Key, map[string]any{"name": "b", "addresses": []map[string]string{
		{"address": watched, "chain": "ethereum"}}}).Must(t, http.StatusCreated).JSON["watchlist"].(map[string]any)["id"].(string)
	second := ls.Do(t, "POST", "/v1/compliance/watchlists", a.Key, map[string]any{"name": "cold", "addresses": []any{}}).Must(t, http.StatusCreated)
	ls.Do(t, "POST", "/v1/compliance/watchlists/"+second.JSON["watchlist"].(map[string]any)["id"].(string)+"/addresses", a.Key,
		map[string]any{"addresses": []map[string]string{{"address": watched, "chain": "base"}}}).Must(t, http.StatusOK)
	p1 := ls.Do(t, "GET", "/v1/compliance/watchlists?limit=1", a.Key, nil).Must(t, http.StatusOK)
	p2 := ls.Do(t, "GET", "/v1/compliance/watchlists?limit=1&cursor="+p1.Str("nextCursor"), a.Key, nil).Must(t, http.StatusOK)
	if p1.JSON["watchlists"].([]any)[0].(map[string]any)["id"] != id || len(p2.JSON["watchlists"].([]any)) != 1 {
		t.Fatalf("pages %s %s", p1.Body, p2.Body)
	}

	orig, err := os.ReadFile(eth)
	if err != nil {
		t.Fatal(err)
	}
	ingest := func(list []byte) {
		t.Helper()
		if err := os.WriteFile(eth, list, 0o600); err != nil {
			t.Fatal(err)
		}
		ls.Do(t, "POST", "/v1/admin/ingest", apitest.AdminToken, nil).Must(t, http.StatusOK)
	}
	ingest(append(append([]byte{}, orig...), "\n"+watched+"\n"...))
	alerts := ls.Do(t, "GET", "/v1/compliance/alerts", a.Key, nil).Must(t, http.StatusOK).JSON["alerts"].([]any)
	if len(alerts) != 2 { // two watchlists
		t.Fatalf("alerts of a: %v", alerts)
	}
	hit := alerts[0].(map[string]any)
	m := hit["matches"].([]any)
	if hit["change"] != "sanctioned" || hit["canonicalAddress"] != strings.ToLower(watched) || len(m) != 1 || m[0].(map[string]any)["source"] == "" {
		t.Fatalf("alert %v", hit)
	}
	// The proof of the version, while it is the current one.
	if p := ls.Do(t, "GET", hit["proofUrl"].(string), a.Key, nil).Must(t, http.StatusOK); p.JSON["listed"] != true {
		t.Fatalf("membership proof of the listing: %s", p.Body)
	}
	ingest(orig)
	alerts = ls.Do(t, "GET", "/v1/compliance/alerts", a.Key, nil).Must(t, http.StatusOK).JSON["alerts"].([]any)
	gone := alerts[0].(map[string]any)
	if len(alerts) != 4 || gone["change"] != "delisted" || gone["listVersion"].(float64) != hit["listVersion"].(float64)+1 {
		t.Fatalf("alerts after the delisting: %v", alerts)
	}
	if p := ls.Do(t, "GET", gone["proofUrl"].(string), a.Key, nil).Must(t, http.StatusOK); p.JSON["listed"] != false || p.JSON["exclusionProof"] == nil {
		t.Fatalf("exclusion proof of the delisting: %s", p.Body)
	}
	bAlerts := ls.Do(t, "GET", "/v1/compliance/alerts?limit=1", b.Key, nil).Must(t, http.StatusOK)
	rest := ls.Do(t, "GET", "/v1/compliance/alerts?cursor="+bAlerts.Str("nextCursor"), b.Key, nil).Must(t, http.StatusOK)
	first := bAlerts.JSON["alerts"].([]any)[0].(map[string]any)
	if first["watchlistId"] != other || first["change"] != "delisted" || len(rest.JSON["alerts"].([]any)) != 1 || rest.JSON["hasMore"] != false {
		t.Fatalf("alerts of b: %s %s", bAlerts.Body, rest.Body)
	}
	ls.Do(t, "GET", "/v1/compliance/alerts?cursor="+bAlerts.Str("nextCursor"), a.Key, nil).Problem(t, http.StatusBadRequest, "invalid")
}

// TestWatchlistPricing: an account's first 1000 watched addresses are
// free, each further one added costs compliance.watch once (an address
// held already nothing), and an account that cannot pay adds nothing.
func TestWatchlistPricing(t *testing.T) {
	ls, a := memServer(t, 1)
	start := ls.Balance(t, a.Key)
	if start != 1 {
		t.Fatalf("balance %d, want 1", start)
	}
	r := ls.Do(t, "POST", "/v1/compliance/watchlists", a.Key, map[string]any{"name": "big", "addresses": watchAddrs(1, 1002)}).Must(t, http.StatusCreated)
	if r.Num("creditCharged") != 1 || r.Num("added") != 1001 || ls.Balance(t, a.Key) != start-1 {
		t.Fatalf("create beyond the free addresses: %s (balance %d, was %d)", r.Body[:200], ls.Balance(t, a.Key), start)
	}
	id := r.JSON["watchlist"].(map[string]any)["id"].(string)
	// The balance is spent: the next addresses are refused, none added.
	ls.Do(t, "POST", "/v1/compliance/watchlists/"+id+"/addresses", a.Key, map[string]any{"addresses": watchAddrs(1001, 1004)}).
		Problem(t, http.StatusPaymentRequired, "insufficient_credits")
	if w := ls.Do(t, "GET", "/v1/compliance/watchlists/"+id, a.Key, nil).Must(t, http.StatusOK); w.Num("addressCount") != 1001 {
		t.Fatalf("a refused payment added addresses: %s", w.Body)
	}
	ls.TopUp(t, a, 10)
	before := ls.Balance(t, a.Key)
	r = ls.Do(t, "POST", "/v1/compliance/watchlists/"+id+"/addresses", a.Key, map[string]any{"addresses": watchAddrs(1001, 1004)}).Must(t, http.StatusOK)
	if r.Num("added") != 2 || r.Num("creditCharged") != 2 || ls.Balance(t, a.Key) != before-2 {
		t.Fatalf("add: %s (balance %d, was %d)", r.Body, ls.Balance(t, a.Key), before)
	}
}
