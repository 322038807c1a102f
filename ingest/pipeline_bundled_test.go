package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"sync/atomic"
	"testing"

	"github.com/cairn-dev/cairn/merkle"
	"github.com/cairn-dev/cairn/screening"
)

// lazarusETH is an ETH address of the Lazarus Group (OFAC 27307) in the
// SDN list of 2025-11-19; the excerpt served below lists it too.
const lazarusETH = "0x098B716B8Aaf21512996dC57EB0615e2383E2f96"

// TestPipelineBundledThenLive installs the bundled snapshot, then runs
// gov_sdn against a local server: a failing server keeps the snapshot with
// the failure recorded, a serving one replaces it with the live file. A
// restore from the store brings the snapshot's marks back.
func TestPipelineBundledThenLive(t *testing.T) {
	xml, err := os.ReadFile("testdata/ofac_xml/sdn_advanced_excerpt.xml")
	if err != nil {
		t.Fatal(err)
	}
	var up atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !up.Load() {
			http.Error(w, "unavailable", http.StatusServiceUnavailable)
			return
		}
		w.Write(xml)
	}))
	defer srv.Close()
	db := tempStore(t)
	ctx := context.Background()
	b, err := BundledSnapshot()
	if err != nil {
		t.Fatal(err)
	}
	p, h := newPipeline(t, Source{Name: SourceGovSDN, Location: srv.URL + "/SDN_ADVANCED.XML"})
	p.Store = db
	// The excerpt has 42 of the 79 listed parties: the drop check would
	// rightly refuse it as a replacement of the full list.
	p.MaxDrop = 0.9
	res, err := p.InstallBundled(ctx, b)
	if err != nil || res.Version != 1 || res.Leaves < 700 {
		t.Fatalf("install: %+v %v", res, err)
	}
	ix := h.Current()
	snap := ix.Snapshots[SourceGovSDN]
	if !snap.Bundled || snap.SourceSHA256 != bundledSHA256 || snap.SnapshotDate != bundledDate || snap.SHA256 != b.SHA256() {
		t.Fatalf("snapshot %+v", snap)
	}
	rc, info, err := p.Blobs.Get(ctx, snap.BlobName, 0, -1)
	if err != nil || info.Size != int64(len(b.Data)) {
		t.Fatalf("bundled file in the blob store: %+v %v", info, err)
	}
	rc.Close()
	assertListed(t, ix, lazarusETH, "27307")
	if !p.Ready() || p.States()[SourceGovSDN].Entries < ix.Len() {
		t.Fatal("not ready on the bundled snapshot")
	}

	entries := p.States()[SourceGovSDN].Entries
	t.Run("FailedFetchKeepsSnapshot", func(t *testing.T) {
		res, err := p.Run(ctx)
		if err != nil || res.Failures[SourceGovSDN] == "" || res.Root != rootHex(ix) || res.Added+res.Removed != 0 {
			t.Fatalf("run with the server down: %+v %v", res, err)
		}
		// Nothing was fetched: no new list version, the installed one stays.
		if res.Version != 1 || h.Current().Version != 1 {
			t.Fatalf("a run whose every source failed made version %d (installed %d), want 1", res.Version, h.Current().Version)
		}
		if vs, err := p.Versions(ctx, 0, 10); err != nil || len(vs) != 1 {
			t.Fatalf("stored versions after a failed run: %d %v", len(vs), err)
		}
		st := p.States()[SourceGovSDN]
		if st.LastError == "" || !st.Snapshot.Bundled || st.Entries != entries {
			t.Fatalf("state %+v", st)
		}
		assertListed(t, h.Current(), lazarusETH, "27307")
	})
	t.Run("RestoreKeepsMarks", func(t *testing.T) {
		q, h2 := newPipeline(t)
		q.Store = db
		if ok, err := q.Restore(ctx); !ok || err != nil {
			t.Fatalf("restore: %v %v", ok, err)
		}
		if s := h2.Current().Snapshots[SourceGovSDN]; s != h.Current().Snapshots[SourceGovSDN] || !s.Bundled {
			t.Fatalf("restored snapshot %+v", s)
		}
	})
	t.Run("LiveReplacesSnapshot", func(t *testing.T) {
		up.Store(true)
		res, err := p.Run(ctx)
		if err != nil || len(res.Failures) != 0 || res.Removed == 0 {
			t.Fatalf("run with the server up: %+v %v", res, err)
		}
		sum := sha256.Sum256(xml)
		s := h.Current().Snapshots[SourceGovSDN]
		if s.Bundled || s.SourceSHA256 != "" || s.SnapshotDate != "" || s.SHA256 != hex.EncodeToString(sum[:]) {
			t.Fatalf("live snapshot %+v", s)
		}
		if st := p.States()[SourceGovSDN]; st.LastError != "" || st.Snapshot.Bundled {
			t.Fatalf("state %+v", st)
		}
		assertListed(t, h.Current(), lazarusETH, "27307")
	})
}

// assertListed checks that addr screens sanctioned for entity on ethereum
// and that its proof leads to the index root.
func assertListed(t *testing.T, ix *screening.Index, addr, entity string) {
	t.Helper()
	r, err := ix.Screen([]screening.Query{{Address: addr, Chain: "ethereum"}}, true)
	if err != nil || r[0].Status != screening.StatusSanctioned || r[0].Matches[0].EntityID != entity ||
		r[0].Matches[0].Source != SourceGovSDN {
		t.Fatalf("%s: %+v %v", addr, r, err)
	}
	fam, canon, err := screening.NormalizeForTicker("ETH", addr)
	if err != nil {
		t.Fatal(err)
	}
	leaf, proof, ok := ix.Proof(fam, canon)
	if !ok || !merkle.Verify(ix.Root(), leaf, proof) {
		t.Fatalf("%s: no proof to the root", addr)
	}
}
