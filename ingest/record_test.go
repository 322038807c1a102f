package ingest

import (
	"maps"
	"strings"
	"testing"
)

func TestEmitter(t *testing.T) {
	var out []Record
	st := newStats()
	em := newEmitter(func(r Record) error { out = append(out, r); return nil }, &st)
	in := []Record{
		{EntityID: "1", Ticker: " xbt ", Address: " 1abc\r\n"},
		{EntityID: "1", Ticker: "XBT", Address: "1abc"}, // duplicate after trimming
		{EntityID: "1", Ticker: "USDT", Address: "1abc"},
		{EntityID: "2", Ticker: "XBT", Address: "1abc"}, // another entity
		{EntityID: "1", Ticker: "XBT", Address: "   "},
		{EntityID: "1", Ticker: "", Address: "1def"},
		{EntityID: "1", Ticker: "XBT", Address: "1d ef"},
		{EntityID: "1", Ticker: "XBT", Address: strings.Repeat("1", maxAddressLen+1)},
	}
	for _, r := range in {
		if err := em.add(r); err != nil {
			t.Fatal(err)
		}
	}
	if len(out) != 3 || out[0].Ticker != "XBT" || out[0].Address != "1abc" || out[0].Category != CategorySanctions {
		t.Fatalf("out %+v", out)
	}
	wantSkipped := map[string]int{"empty address": 1, "empty currency": 1, "address contains whitespace": 1, "address too long": 1}
	if st.Duplicates != 1 || st.Records != 3 || !maps.Equal(st.Skipped, wantSkipped) || st.SkippedTotal() != 4 {
		t.Errorf("stats %+v", st)
	}
	if got := st.Tickers(); strings.Join(got, ",") != "USDT,XBT" {
		t.Errorf("tickers %v", got)
	}
	em.reset()
	_ = em.add(Record{EntityID: "1", Ticker: "XBT", Address: "1abc"})
	if len(out) != 4 {
		t.Errorf("reset did not forget the previous entity")
	}
}

func TestListSource(t *testing.T) {
	if ListSource("bitcoin") != "list:bitcoin" {
		t.Error("ListSource")
	}
}
