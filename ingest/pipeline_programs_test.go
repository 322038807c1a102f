package ingest

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/screening"
)

// TestPipelineProgramsReachMatches: the programs an OFAC file gives an
// entity (SDN_ADVANCED.XML and the legacy CSV pair) go from the parsed
// record to the stored list entry and to the screening match, in the
// match's JSON after its entity, and come back from the store after a
// restore; a plain list's match has none.
func TestPipelineProgramsReachMatches(t *testing.T) {
	const suexXBT = "1KUUJPkyDhamZXgpsyXqNGc3x1QPXtdhgz" // SUEX OTC, S.R.O. (33151), program CYBER2
	for _, tc := range []struct {
		name, location, addr, chain, entity, entityName string
		programs                                        []string
	}{
		{"AdvancedXML", "testdata/ofac_xml/sdn_advanced_mini.xml", lazarusETH, "ethereum", "27307", "Lazarus Group", []string{"DPRK3"}},
		{"CSV", "testdata/ofac_csv/sdn.csv,testdata/ofac_csv/sdn_comments.csv", suexXBT, "bitcoin", "33151", "SUEX OTC, S.R.O.", []string{"CYBER2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			db := tempStore(t)
			p, h := newPipeline(t, Source{Name: SourceGovSDN, Location: tc.location},
				Source{Name: "list:ETH", Location: "testdata/ofac_lists/sanctioned_addresses_ETH.txt"})
			p.Store = db
			if _, err := p.Run(ctx); err != nil {
				t.Fatal(err)
			}
			check := func(ix *screening.Index, when string) {
				t.Helper()
				m := sdnMatch(t, ix, tc.addr, tc.chain)
				if m.EntityID != tc.entity || m.EntityName != tc.entityName || !slices.Equal(m.Programs.List(), tc.programs) {
					t.Fatalf("%s: match %+v, want %s (%s) under %q", when, m, tc.entityName, tc.entity, tc.programs)
				}
				b, _ := json.Marshal(m)
				if want := `"entityName":` + jsonString(tc.entityName) + `,"programs":` + jsonArray(tc.programs) + `,"source":"gov_sdn"`; !strings.Contains(string(b), want) {
					t.Fatalf("%s: match JSON %s, want %s", when, b, want)
				}
			}
			check(h.Current(), "after the run")
			var stored []cairn.ListEntry
			if err := db.ListEntries(ctx, func(e cairn.ListEntry) error {
				if e.Source == SourceGovSDN && e.EntityID == tc.entity {
					stored = append(stored, e)
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if len(stored) == 0 || slices.ContainsFunc(stored, func(e cairn.ListEntry) bool { return !slices.Equal(e.Programs.List(), tc.programs) }) {
				t.Fatalf("stored entries of %s: %+v", tc.entity, stored)
			}
			q, h2 := newPipeline(t)
			q.Store = db
			if ok, err := q.Restore(ctx); !ok || err != nil {
				t.Fatalf("restore: %v %v", ok, err)
			}
			check(h2.Current(), "after a restore")
			if h2.Current().Root() != h.Current().Root() {
				t.Fatal("the restored version has another root")
			}
			// A plain list names no programs: Tornado's match has none, and
			// its JSON is what it was before programs were kept.
			r, err := h.Current().Screen([]screening.Query{{Address: "0x8589427373D6D84E98730D7795D8F6F8731FDA16", Chain: "ethereum"}}, false)
			if err != nil || len(r[0].Matches) != 1 {
				t.Fatalf("plain list match %+v %v", r, err)
			}
			if b, _ := json.Marshal(r[0].Matches[0]); string(b) != `{"entityId":null,"entityName":null,"source":"list:ETH","category":"sanctions","severity":"critical"}` {
				t.Fatalf("plain list match JSON %s", b)
			}
		})
	}
}

// TestPipelineBundledPrograms: the SDN snapshot built into the binary
// keeps each entity's programs: installed, the Lazarus Group's address
// matches with DPRK3.
func TestPipelineBundledPrograms(t *testing.T) {
	b, err := BundledSnapshot()
	if err != nil {
		t.Fatal(err)
	}
	p, h := newPipeline(t, Source{Name: SourceGovSDN, Location: "http://127.0.0.1:1/SDN_ADVANCED.XML"})
	if _, err := p.InstallBundled(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	if m := sdnMatch(t, h.Current(), lazarusETH, "ethereum"); m.EntityName != "Lazarus Group" || !slices.Equal(m.Programs.List(), []string{"DPRK3"}) {
		t.Fatalf("match %+v", m)
	}
}

// sdnMatch screens addr on chain and returns its one gov_sdn match.
func sdnMatch(t *testing.T, ix *screening.Index, addr, chain string) screening.Match {
	t.Helper()
	r, err := ix.Screen([]screening.Query{{Address: addr, Chain: chain}}, false)
	if err != nil || r[0].Status != screening.StatusSanctioned {
		t.Fatalf("screen %s: %+v %v", addr, r, err)
	}
	for _, m := range r[0].Matches {
		if m.Source == SourceGovSDN {
			return m
		}
	}
	t.Fatalf("no gov_sdn match for %s: %+v", addr, r[0].Matches)
	return screening.Match{}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func jsonArray(ss []string) string {
	b, _ := json.Marshal(ss)
	return string(b)
}

// TestPipelineStoresNewDetailsOfStoredListings: a store holding the
// entries of a version written before programs were kept (none, and here
// an older entity name too) gets them from the next run that parses the
// source again, so that a restart restores them. The run's version lists
// and delists nothing, makes no history event and keeps the roots: its
// only change is the entries' details.
func TestPipelineStoresNewDetailsOfStoredListings(t *testing.T) {
	ctx := context.Background()
	sources := []Source{{Name: SourceGovSDN, Location: "testdata/ofac_xml/sdn_advanced_mini.xml"},
		{Name: "list:ETH", Location: "testdata/ofac_lists/sanctioned_addresses_ETH.txt"}}
	// The version as stored before: the same listings, without programs.
	current := tempStore(t)
	p0, _ := newPipeline(t, sources...)
	p0.Store = current
	if _, err := p0.Run(ctx); err != nil {
		t.Fatal(err)
	}
	v1, err := current.LastListVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var old []cairn.ListEntry
	if err := current.ListEntries(ctx, func(e cairn.ListEntry) error {
		if e.EntityID == "27307" {
			e.EntityName = "Lazarus Grp"
		}
		e.Programs = ""
		old = append(old, e)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// Written before programs were kept: before parser versions were
	// recorded too, so the next run parses the source again.
	for name, src := range v1.Sources {
		src.ParserVersion = 0
		v1.Sources[name] = src
	}
	db := tempStore(t)
	if err := db.CommitListVersion(ctx, v1, old, nil); err != nil {
		t.Fatal(err)
	}
	p, h := newPipeline(t, sources...)
	p.Store = db
	if ok, err := p.Restore(ctx); !ok || err != nil {
		t.Fatalf("restore: %v %v", ok, err)
	}
	if m := sdnMatch(t, h.Current(), lazarusETH, "ethereum"); m.Programs != "" || m.EntityName != "Lazarus Grp" {
		t.Fatalf("the old version's match %+v", m)
	}

	res, err := p.Run(ctx)
	if err != nil || res.Version != 2 || res.Added != 0 || res.Removed != 0 || res.Root != v1.Root {
		t.Fatalf("run: %+v %v (version 1 root %s)", res, err, v1.Root)
	}
	v2, err := db.LastListVersion(ctx)
	if err != nil || v2.Version != 2 || v2.Added != 0 || v2.Removed != 0 || v2.Entries != len(old) ||
		v2.SanctionsRoot != v1.SanctionsRoot || v2.ExclusionRoot != v1.ExclusionRoot || v2.Leaves != v1.Leaves {
		t.Fatalf("stored version 2 %+v %v, version 1 %+v", v2, err, v1)
	}
	if cs, err := db.VersionChanges(ctx, 2, 0, 10); err != nil || len(cs) != 0 {
		t.Fatalf("changes of version 2: %+v %v", cs, err)
	}
	// The address's listings (gov_sdn and list:ETH) are still those of
	// version 1, the gov_sdn one with its new details.
	hist, err := db.AddressHistory(ctx, "evm", strings.ToLower(lazarusETH))
	if err != nil || len(hist) != 2 || slices.ContainsFunc(hist, func(c cairn.ListChange) bool { return !c.Listed || c.Version != 1 }) {
		t.Fatalf("history of the Lazarus Group's address: %+v %v", hist, err)
	}
	if e := hist[0].Entry; e.Source != SourceGovSDN || e.EntityName != "Lazarus Group" || !slices.Equal(e.Programs.List(), []string{"DPRK3"}) {
		t.Fatalf("the gov_sdn listing of the history: %+v", e)
	}

	// A restart restores the new details.
	q, h2 := newPipeline(t)
	q.Store = db
	if ok, err := q.Restore(ctx); !ok || err != nil {
		t.Fatalf("restore after the run: %v %v", ok, err)
	}
	for _, ix := range []*screening.Index{h.Current(), h2.Current()} {
		if m := sdnMatch(t, ix, lazarusETH, "ethereum"); m.EntityName != "Lazarus Group" || !slices.Equal(m.Programs.List(), []string{"DPRK3"}) {
			t.Fatalf("match of version %d: %+v", ix.Version, m)
		}
	}

	// The next run finds nothing to store again.
	if res, err := p.Run(ctx); err != nil || res.Version != 3 || res.Added != 0 || res.Removed != 0 {
		t.Fatalf("third run: %+v %v", res, err)
	}
}
