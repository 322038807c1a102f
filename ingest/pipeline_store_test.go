package ingest

import (
	"context"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/cairn-dev/cairn/merkle"
	"github.com/cairn-dev/cairn/screening"
	"github.com/cairn-dev/cairn/store/pebble"
)

// TestPipelineVersionsPersist runs a pipeline over an HTTP source with a
// store, delists an address, then restores the last version in a new
// pipeline whose source is unreachable: the list, the version number and
// the history survive, and nothing is fetched.
func TestPipelineVersionsPersist(t *testing.T) {
	addrs := []string{
		"0x0000000000000000000000000000000000000001", "0x0000000000000000000000000000000000000002",
		"0x0000000000000000000000000000000000000003", "0x0000000000000000000000000000000000000004",
		"0x0000000000000000000000000000000000000005",
	}
	var body atomic.Value
	body.Store(strings.Join(addrs, "\n"))
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Write([]byte(body.Load().(string)))
	}))
	defer srv.Close()
	db := tempStore(t)
	ctx := context.Background()
	p, h := newPipeline(t, Source{Name: "list:ETH", Location: srv.URL + "/eth.txt"})
	p.Store = db
	var progress []Progress
	p.OnProgress = func(pr Progress) { progress = append(progress, pr) }
	if _, err := p.Run(ctx); err != nil {
		t.Fatal(err)
	}
	body.Store(strings.Join(addrs[:4], "\n") + "\n" + addrs[0]) // drops addrs[4], repeats addrs[0]
	res, err := p.Run(ctx)
	if err != nil || res.Version != 2 || res.Added != 0 || res.Removed != 1 || res.Leaves != 4 {
		t.Fatalf("second run: %+v %v", res, err)
	}
	if len(progress) != 2 || progress[1].Source != "list:ETH" || progress[1].Entries != 4 || progress[1].Err != nil {
		t.Fatalf("progress %+v", progress)
	}
	root := h.Current().Root()

	t.Run("History", func(t *testing.T) {
		hist, err := p.History(ctx, screening.EVM, addrs[4])
		if err != nil || len(hist) != 2 || !hist[0].Listed || hist[0].Version != 1 || hist[1].Listed || hist[1].Version != 2 {
			t.Fatalf("history %+v %v", hist, err)
		}
		vs, err := p.Versions(ctx, 0, 10)
		if err != nil || len(vs) != 2 || vs[0].Removed != 1 || vs[1].Added != 5 || vs[0].Sources["list:ETH"].SHA256 == "" {
			t.Fatalf("versions %+v %v", vs, err)
		}
	})
	t.Run("RestoreWithoutNetwork", func(t *testing.T) {
		srv.Close()
		before := hits.Load()
		q, h2 := newPipeline(t, Source{Name: "list:ETH", Location: srv.URL + "/eth.txt"})
		q.Store = db
		ok, err := q.Restore(ctx)
		if err != nil || !ok {
			t.Fatalf("restore: %v %v", ok, err)
		}
		ix := h2.Current()
		if ix.Version != 2 || ix.Root() != root || hits.Load() != before {
			t.Fatalf("restored version %d root %x", ix.Version, ix.Root())
		}
		for i, a := range addrs {
			r, _ := ix.Screen([]screening.Query{{Address: a, Chain: "base"}}, true)
			if want := map[bool]string{true: screening.StatusClear, false: screening.StatusSanctioned}[i == 4]; r[0].Status != want {
				t.Errorf("%s after restore: %s, want %s", a, r[0].Status, want)
			}
		}
		// The source is down: the run keeps the restored version (nothing
		// was fetched, so no new version is stored).
		res, err := q.Run(ctx)
		if err != nil || res.Version != 2 || res.Failures["list:ETH"] == "" || res.Leaves != 4 || res.Added+res.Removed != 0 {
			t.Fatalf("run with the source down: %+v %v", res, err)
		}
		if st := q.States()["list:ETH"]; st.LastError == "" || st.Entries != 4 || st.Snapshot.SHA256 == "" {
			t.Fatalf("state %+v", st)
		}
	})
}

// tempStore opens a Pebble store in a temporary directory, closed at the
// end of the test.
func tempStore(t *testing.T) *pebble.DB {
	t.Helper()
	db, err := pebble.Open(t.TempDir(), pebble.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestPipelineCommunity checks that community listings enter a version on
// Rebuild, never make an address sanctioned, and leave with includeCommunity
// false.
func TestPipelineCommunity(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "eth.txt")
	const listed, reported = "0x0000000000000000000000000000000000000001", "0x00000000000000000000000000000000000000cc"
	if err := os.WriteFile(list, []byte(listed+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var community []screening.Listing
	p, h := newPipeline(t, Source{Name: "list:ETH", Location: list})
	p.Community = func(context.Context) ([]screening.Listing, error) { return community, nil }
	db := tempStore(t)
	p.Store = db
	ctx := context.Background()
	first, err := p.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	comm := screening.Match{EntityID: "r1", Source: screening.SourceCommunity, Category: "scam", Severity: "medium"}
	community = []screening.Listing{
		{Family: screening.EVM, Address: reported, Match: comm},
		{Family: screening.EVM, Address: listed, Match: comm},
	}
	ix, err := p.Rebuild(ctx)
	if err != nil || ix.Version != 2 {
		t.Fatalf("rebuild: %v", err)
	}
	for _, tc := range []struct {
		addr      string
		community bool
		status    string
		matches   int
	}{
		{reported, true, screening.StatusFlagged, 1},
		{reported, false, screening.StatusClear, 0},
		{listed, true, screening.StatusSanctioned, 2},
		{listed, false, screening.StatusSanctioned, 1},
	} {
		r, _ := h.Current().Screen([]screening.Query{{Address: tc.addr, Chain: "ethereum"}}, tc.community)
		if r[0].Status != tc.status || len(r[0].Matches) != tc.matches {
			t.Errorf("%s (community %v): %s with %d matches, want %s with %d", tc.addr, tc.community, r[0].Status, len(r[0].Matches), tc.status, tc.matches)
		}
	}
	// Two trees: the escalation changes the community root only; the
	// stored header has both roots, and a restart rebuilds both.
	v, err := db.LastListVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cr := ix.CommunityRoot()
	if v.Root != first.Root || v.SanctionsRoot != first.Root || v.CommunityRoot != "0x"+hex.EncodeToString(cr[:]) ||
		cr == (merkle.Hash{}) || v.Leaves != 1 || v.CommunityLeaves != 2 {
		t.Fatalf("version 2 %+v (version 1 root %s)", v, first.Root)
	}
	if ix.ClassOf(screening.EVM, listed) != screening.ClassSanctions || ix.ClassOf(screening.EVM, reported) != screening.ClassCommunity {
		t.Fatal("classes")
	}
	p2, h2 := newPipeline(t, Source{Name: "list:ETH", Location: list})
	p2.Store = db
	if ok, err := p2.Restore(ctx); !ok || err != nil {
		t.Fatalf("restore: %v %v", ok, err)
	}
	if got := h2.Current(); got.Version != 2 || got.Root() != ix.Root() || got.CommunityRoot() != cr {
		t.Fatal("the restored version has other roots")
	}
}
