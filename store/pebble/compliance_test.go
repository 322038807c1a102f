package pebble_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/cairn-dev/cairn/store/pebble"
	"github.com/cairn-dev/cairn/store/storetest"
)

// TestScreeningsPersistence checks that free windows and the screening
// count survive a reopen (the other suites of the optional interfaces run
// from TestConformance).
func TestScreeningsPersistence(t *testing.T) {
	open := func(t *testing.T, dir string) *pebble.DB {
		db, err := pebble.Open(dir, pebble.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	dir := t.TempDir()
	storetest.RunScreeningPersistenceTest(t, func(t *testing.T) store.Screenings { return open(t, dir) },
		func(t *testing.T, s store.Screenings) store.Screenings {
			if err := s.(*pebble.DB).Close(); err != nil {
				t.Fatal(err)
			}
			return open(t, dir)
		})
}

// reversed is Entries in the reverse of their key order.
type reversed []cairn.ListEntry

func (r reversed) Len() int                 { return len(r) }
func (r reversed) At(i int) cairn.ListEntry { return r[len(r)-1-i] }

// TestPrepareEntriesOutOfOrder: entries read by position must come in key
// order (an EntrySlice is sorted by the store); others out of order are
// refused, and nothing is stored.
func TestPrepareEntriesOutOfOrder(t *testing.T) {
	ctx := context.Background()
	db, err := pebble.Open(t.TempDir(), pebble.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	es := []cairn.ListEntry{{Family: "evm", Address: "0x01", Source: "s"}, {Family: "evm", Address: "0x02", Source: "s"}}
	if _, err := db.PrepareListVersion(ctx, 1, time.Unix(1, 0), reversed(es), nil); err == nil {
		t.Fatal("entries out of key order were accepted")
	}
	p, err := db.PrepareListVersion(ctx, 1, time.Unix(1, 0), reversed{es[1], es[0]}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Commit(ctx, cairn.ListVersion{Version: 1, BuiltAt: time.Unix(1, 0)}); err != nil {
		t.Fatal(err)
	}
	var got []cairn.ListEntry
	if err := db.ListEntries(ctx, func(e cairn.ListEntry) error { got = append(got, e); return nil }); err != nil || !slices.Equal(got, es) {
		t.Fatalf("stored %+v %v", got, err)
	}
}
