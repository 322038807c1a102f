package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"os"
	"testing"

	"github.com/cairn-dev/cairn/screening"
)

// TestPipelineSourceFormats runs each real source format through the
// pipeline (fetch, snapshot, parse, normalise, dedupe) and pins the
// listings per address family. An address OFAC lists under several tickers
// of one entity (USDT and ETH on EVM, say) is one listing.
func TestPipelineSourceFormats(t *testing.T) {
	tests := []struct {
		name     string
		src      Source
		families map[screening.Family]int
	}{
		{"SDNAdvancedExcerpt", Source{Name: SourceGovSDN, Location: "testdata/ofac_xml/sdn_advanced_excerpt.xml"}, map[screening.Family]int{
			screening.Bitcoin: 276, screening.BitcoinCash: 4, screening.BitcoinGold: 1, screening.BitcoinSV: 1, screening.BNBBeacon: 1,
			screening.Dash: 2, screening.EVM: 66, screening.Litecoin: 7, screening.Monero: 3, screening.Ripple: 1, screening.Solana: 1,
			screening.Tron: 99, screening.Verge: 1, screening.Zcash: 3,
		}},
		{"SDNCSVWithComments", Source{Name: SourceGovSDN, Location: "testdata/ofac_csv/sdn.csv, testdata/ofac_csv/sdn_comments.csv"},
			map[screening.Family]int{screening.Bitcoin: 18, screening.Dash: 1, screening.EVM: 6, screening.Litecoin: 1}},
		{"FtMWallets", Source{Name: SourceAggregated, Location: "testdata/opensanctions/wallets_constructed.ftm.json"},
			map[screening.Family]int{screening.Bitcoin: 1, screening.EVM: 2, screening.Tron: 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, h := newPipeline(t, tc.src)
			res, err := p.Run(context.Background())
			if err != nil || len(res.Failures) != 0 {
				t.Fatalf("run: %+v %v", res, err)
			}
			got := map[screening.Family]int{}
			total := 0
			if len(p.last) != 1 {
				t.Fatalf("listings of %d sources, want 1", len(p.last))
			}
			for l := range p.last[tc.src.Name].All() {
				got[l.Family]++
				total++
				if l.Source != tc.src.Name || l.EntityID == "" {
					t.Fatalf("listing %+v", l)
				}
			}
			if !maps.Equal(got, tc.families) {
				t.Errorf("listings per family %v, want %v", got, tc.families)
			}
			if ix := h.Current(); ix.BySource()[tc.src.Name] != total || ix.Snapshots[tc.src.Name].SHA256 == "" {
				t.Errorf("index: by source %v, snapshots %v", ix.BySource(), ix.Snapshots)
			}
		})
	}
	t.Run("CSVCommentsSnapshotToo", func(t *testing.T) {
		raw, err := os.ReadFile("testdata/ofac_csv/sdn_comments.csv")
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(raw)
		p, _ := newPipeline(t, tests[1].src)
		if _, err := p.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		if _, err := p.Blobs.Stat(context.Background(), "snapshots/"+hex.EncodeToString(sum[:])); err != nil {
			t.Fatalf("sdn_comments.csv not in the blob store: %v", err)
		}
	})
	t.Run("ErrSourceWithoutAddresses", func(t *testing.T) {
		// The real consolidated (non-SDN) excerpt lists no digital currency
		// address: a source that yields nothing is a failure, not an empty list.
		p, _ := newPipeline(t, Source{Name: SourceGovSDN, Location: "testdata/ofac_xml/cons_enhanced_excerpt.xml"})
		res, err := p.Run(context.Background())
		if err != nil || res.Failures[SourceGovSDN] == "" || p.Ready() {
			t.Fatalf("run: %+v %v, ready %v", res, err, p.Ready())
		}
	})
}
