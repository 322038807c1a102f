package api_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/cairn-dev/cairn/api/apitest"
)

// TestWatchlistFreeAllowanceConcurrent: concurrent adds of one account
// share its free addresses, never both using the same ones: with 990 of
// the 1000 free addresses used, eight adds of 10 new addresses at once,
// to two watchlists, charge 70 addresses in all, whatever their order.
func TestWatchlistFreeAllowanceConcurrent(t *testing.T) {
	ls, a := memServer(t, 200)
	var ids []string
	for _, r := range []int{600, 390} {
		w := ls.Do(t, "POST", "/v1/compliance/watchlists", a.Key, map[string]any{"name": "w", "addresses": watchAddrs(len(ids)*1000+1, len(ids)*1000+1+r)}).
			Must(t, http.StatusCreated)
		if w.Num("creditCharged") != 0 {
			t.Fatalf("free addresses charged: %s", w.Body[:200])
		}
		ids = append(ids, w.JSON["watchlist"].(map[string]any)["id"].(string))
	}
	before := ls.Balance(t, a.Key)
	const n = 8
	charged := 0.0
	for _, r := range apitest.Race(t, n, func(i int) (*apitest.Response, error) {
		return ls.Try(t, "POST", "/v1/compliance/watchlists/"+ids[i%2]+"/addresses", a.Key,
			map[string]any{"addresses": watchAddrs(10_000+10*i, 10_010+10*i)})
	}) {
		if r.Must(t, http.StatusOK); r.Num("added") != 10 {
			t.Fatalf("add: %s", r.Body)
		}
		charged += r.Num("creditCharged")
	}
	if charged != 70 || ls.Balance(t, a.Key) != before-70 {
		t.Fatalf("charged %v in the answers, balance %d from %d: want 70 (80 added, 10 free left)", charged, ls.Balance(t, a.Key), before)
	}
}

// watchAddrs is the ethereum addresses from to to-1 of a watchlist request.
func watchAddrs(from, to int) []map[string]string {
	var out []map[string]string
	for i := from; i < to; i++ {
		out = append(out, map[string]string{"address": fmt.Sprintf("0x%040x", i), "chain": "ethereum"})
	}
	return out
}
