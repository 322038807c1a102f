package pebble_test

import (
	"testing"

	"github.com/cairn-dev/cairn/store"
	"github.com/cairn-dev/cairn/store/pebble"
	"github.com/cairn-dev/cairn/store/storetest"
)

func TestMediaConformance(t *testing.T) {
	storetest.RunMediaTests(t, func(t *testing.T) store.Media {
		db, err := pebble.Open(t.TempDir(), pebble.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	})
}

func TestReportConformance(t *testing.T) {
	storetest.RunReportTests(t, func(t *testing.T) store.Reports {
		db, err := pebble.Open(t.TempDir(), pebble.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	})
}
