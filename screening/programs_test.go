package screening

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
)

// TestProgramsOutsideTheTrees: programs ride on a listing's match and are
// no part of its leaf: the same listings with and without programs have
// the same roots, exclusion roots and proofs, and the match of a screened
// address carries its programs.
func TestProgramsOutsideTheTrees(t *testing.T) {
	const lazarus = "0x098b716b8aaf21512996dc57eb0615e2383e2f96"
	build := func(programs cairn.Programs) *Index {
		t.Helper()
		ls, err := NewListings([]Listing{
			{Family: EVM, Address: lazarus, Match: Match{EntityID: "27307", EntityName: "Lazarus Group", Programs: programs,
				Source: SourceGovSDN, Category: "sanctions", Severity: "critical"}},
			{Family: Bitcoin, Address: "1KUUJPkyDhamZXgpsyXqNGc3x1QPXtdhgz", Match: Match{EntityID: "33151", Programs: programs,
				Source: SourceGovSDN, Category: "sanctions", Severity: "critical"}},
		})
		if err != nil {
			t.Fatal(err)
		}
		ix, err := BuildFrom(1, time.Unix(0, 0), ls)
		if err != nil {
			t.Fatal(err)
		}
		return ix
	}
	with, without := build(cairn.ProgramsOf([]string{"DPRK3"})), build("")
	if with.Root() != without.Root() || with.ExclusionRoot() != without.ExclusionRoot() || with.CommunityRoot() != without.CommunityRoot() {
		t.Fatal("programs changed a root")
	}
	l1, p1, ok1 := with.Proof(EVM, lazarus)
	l2, p2, ok2 := without.Proof(EVM, lazarus)
	if !ok1 || !ok2 || l1 != l2 || !slices.Equal(p1, p2) {
		t.Fatal("programs changed a leaf or its proof")
	}
	r, err := with.Screen([]Query{{Address: lazarus, Chain: "ethereum"}}, false)
	if err != nil || len(r[0].Matches) != 1 || !slices.Equal(r[0].Matches[0].Programs.List(), []string{"DPRK3"}) {
		t.Fatalf("screened %+v %v", r, err)
	}
	b, _ := json.Marshal(r[0].Matches[0])
	if string(b) != `{"entityId":"27307","entityName":"Lazarus Group","programs":["DPRK3"],"source":"gov_sdn","category":"sanctions","severity":"critical"}` {
		t.Fatalf("match JSON %s", b)
	}
	var back Match
	if err := json.Unmarshal(b, &back); err != nil || back != r[0].Matches[0] {
		t.Fatalf("match decoded %+v %v", back, err)
	}
}
