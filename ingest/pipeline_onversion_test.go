package ingest

import (
	"context"
	"testing"

	"github.com/cairn-dev/cairn"
)

// TestPipelineOnVersion: every installed list version is handed to
// OnVersion once, after it is served, with the root the index serves.
func TestPipelineOnVersion(t *testing.T) {
	p, h := newPipeline(t, Source{Name: "list:ETH", Location: "testdata/ofac_lists/sanctioned_addresses_ETH.txt"})
	var got []cairn.ListVersion
	p.OnVersion = func(_ context.Context, v cairn.ListVersion) {
		if h.Current().Version != v.Version {
			t.Errorf("OnVersion(%d) ran before the version was installed (serving %d)", v.Version, h.Current().Version)
		}
		got = append(got, v)
	}
	if _, err := p.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Rebuild(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Version != 1 || got[1].Version != 2 {
		t.Fatalf("OnVersion saw %+v, want versions 1 and 2", got)
	}
	if got[1].Root != rootHex(h.Current()) || got[1].Leaves == 0 {
		t.Fatalf("OnVersion root %s (leaves %d), index serves %s", got[1].Root, got[1].Leaves, rootHex(h.Current()))
	}
}
