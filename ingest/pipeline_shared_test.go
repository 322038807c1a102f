package ingest

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/cairn-dev/cairn/screening"
)

// TestPipelinesShareStore runs two pipelines on one store, as two
// processes sharing a database do: Sync installs the version the other
// committed (and only a newer one), a community rebuild on the pipeline
// that has not synced builds on the stored version instead of failing, and
// a run on the other keeps its fresh fetch while building on that version.
func TestPipelinesShareStore(t *testing.T) {
	ctx := context.Background()
	list := filepath.Join(t.TempDir(), "eth.txt")
	write := func(s string) {
		if err := os.WriteFile(list, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("0x0000000000000000000000000000000000000001\n0x0000000000000000000000000000000000000002\n")
	db := tempStore(t)
	var mu sync.Mutex
	var community []screening.Listing
	communityOf := func(context.Context) ([]screening.Listing, error) {
		mu.Lock()
		defer mu.Unlock()
		return append([]screening.Listing(nil), community...), nil
	}
	leader, hl := newPipeline(t, Source{Name: "list:ETH", Location: list})
	follower, hf := newPipeline(t, Source{Name: "list:ETH", Location: list})
	for _, p := range []*Pipeline{leader, follower} {
		p.Store, p.Community = db, communityOf
	}
	if _, err := leader.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if ok, err := follower.Sync(ctx); err != nil || !ok || hf.Current().Root() != hl.Current().Root() || !follower.Ready() {
		t.Fatalf("sync of version 1: %v %v", ok, err)
	}
	if ok, err := follower.Sync(ctx); err != nil || ok {
		t.Fatalf("sync of the installed version: %v %v, want nothing done", ok, err)
	}

	write("0x0000000000000000000000000000000000000001\n0x0000000000000000000000000000000000000002\n0x0000000000000000000000000000000000000003\n")
	if res, err := leader.Run(ctx); err != nil || res.Version != 2 || res.Leaves != 3 {
		t.Fatalf("second run: %+v %v", res, err)
	}
	// The follower, still at version 1, rebuilds for a community
	// escalation: version 2 is taken, so it builds version 3 on version 2,
	// with the leader's three addresses.
	mu.Lock()
	community = []screening.Listing{{Family: screening.EVM, Address: "0x00000000000000000000000000000000000000aa",
		Match: screening.Match{EntityID: "r", Source: screening.SourceCommunity, Category: "scam", Severity: "medium"}}}
	mu.Unlock()
	ix, err := follower.Rebuild(ctx)
	if err != nil || ix.Version != 3 {
		t.Fatalf("rebuild on a stale version: %v %v", ix, err)
	}
	sanctions, communityLeaves := ix.Leaves()
	if sanctions != 3 || communityLeaves != 1 {
		t.Fatalf("version 3 has %d sanctions and %d community leaves, want 3 and 1", sanctions, communityLeaves)
	}
	// The leader, at version 2, runs with a fourth address: it starts from
	// version 3, and while it fetches the follower commits version 4 (a
	// second escalation), so the leader builds version 5 on version 4, with
	// its fresh fetch and both community listings.
	write("0x0000000000000000000000000000000000000001\n0x0000000000000000000000000000000000000002\n0x0000000000000000000000000000000000000003\n0x0000000000000000000000000000000000000004\n")
	leader.OnProgress = func(Progress) {
		mu.Lock()
		community = append(community, screening.Listing{Family: screening.EVM, Address: "0x00000000000000000000000000000000000000bb",
			Match: screening.Match{EntityID: "r", Source: screening.SourceCommunity, Category: "scam", Severity: "medium"}})
		mu.Unlock()
		if ix, err := follower.Rebuild(ctx); err != nil || ix.Version != 4 {
			t.Errorf("rebuild during the leader's run: %v %v", ix, err)
		}
	}
	res, err := leader.Run(ctx)
	if err != nil || res.Version != 5 {
		t.Fatalf("run on a stale version: %+v %v", res, err)
	}
	sanctions, communityLeaves = hl.Current().Leaves()
	if sanctions != 4 || communityLeaves != 2 {
		t.Fatalf("version 5 has %d sanctions and %d community leaves, want 4 and 2", sanctions, communityLeaves)
	}
	if ok, err := follower.Sync(ctx); err != nil || !ok || hf.Current().Version != 5 || hf.Current().Root() != hl.Current().Root() ||
		hf.Current().CommunityRoot() != hl.Current().CommunityRoot() {
		t.Fatalf("sync of version 5: %v %v", ok, err)
	}
}
