package pebble_test

import (
	"testing"

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
